"""Helpers every app may use; it imports none of them (runtime -> designer -> accounts -> common)."""
