"""Runs as the API offers them: who may reach one, creating, reading and controlling runs, forks, comparisons, limits and tool-call decisions."""
