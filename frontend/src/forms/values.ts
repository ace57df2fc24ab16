// How document values show in text inputs, and back.
import type { JsonObject } from '../doc/types';

/** A value as the text of an input: strings as they are, other values as JSON, nothing as ''. */
export function str(v: unknown): string {
  return typeof v === 'string' ? v : v === undefined || v === null ? '' : JSON.stringify(v);
}

/** Cleared text unsets an optional field rather than saving an empty string. */
export function optStr(v: string): string | undefined {
  return v === '' ? undefined : v;
}

/** The fallback for a missing mapping. A store selector must return the same object while nothing
 * changed: a fresh `{}` each call makes React re-render forever (error #185). */
export const NO_FIELDS: JsonObject = Object.freeze({}) as JsonObject;
