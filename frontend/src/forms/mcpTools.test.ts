import { describe, expect, it } from 'vitest';
import type { Diag } from '../api/types';
import { MCP_GROUP_TITLE, mcpServers, toolGroups, withoutProvided } from './mcpTools';
import { toolChoices } from './toolChoices';

const REGISTERED = [
  { name: 'bash', description: 'Run a command', upstream: true },
  { name: 'read', description: 'Read a file', upstream: true },
  { name: 'add_numbers', description: 'Add two integers', upstream: false, mcp_server: 'fixture', mcp_name: 'add_numbers' },
  { name: 'fixture__read', description: 'Read from the fixture', upstream: false, mcp_server: 'fixture', mcp_name: 'read' },
  { name: 'search', description: 'Search the web', upstream: false, mcp_server: 'web', mcp_name: 'search' },
];

function unknownTool(index: number, agent = 'helper'): Diag {
  return { code: 'unknown_tool', class: 'semantic', severity: 'warning', path: `/agents/${agent}/tools/${index}`, message: 'not provided', line: null, column: null, blocks_run: true };
}

describe('mcpServers', () => {
  it('names each MCP tool’s server and its name there, and leaves built-ins out', () => {
    const servers = mcpServers(REGISTERED);
    expect([...servers.keys()]).toEqual(['add_numbers', 'fixture__read', 'search']);
    expect(servers.get('fixture__read')).toEqual({ server: 'fixture', mcpName: 'read' });
    expect(mcpServers(null).size).toBe(0);
  });
});

describe('toolGroups', () => {
  it('lists built-ins and unknown names first, then the MCP tools under their own heading, in the server’s order', () => {
    const choices = toolChoices(REGISTERED, ['search', 'webfetch']);
    const groups = toolGroups(choices, mcpServers(REGISTERED));
    expect(groups.map((g) => [g.title, g.choices.map((c) => [c.name, c.checked])])).toEqual([
      [null, [['bash', false], ['read', false], ['webfetch', true]]],
      [MCP_GROUP_TITLE, [['add_numbers', false], ['fixture__read', false], ['search', true]]],
    ]);
    expect(groups[1].choices[0].description).toBe('Add two integers');
  });

  it('has no MCP heading when the user has no MCP tools', () => {
    const plain = REGISTERED.slice(0, 2);
    expect(toolGroups(toolChoices(plain, []), mcpServers(plain)).map((g) => g.title)).toEqual([null]);
  });
});

describe('withoutProvided', () => {
  const other: Diag = { ...unknownTool(0), code: 'bad_tool_type' };

  it('drops unknown_tool for names GET /tools provides and keeps the rest', () => {
    const tools = ['add_numbers', 'webfetch', 'fixture__read'];
    expect(withoutProvided([unknownTool(0), unknownTool(1), unknownTool(2), other], tools, REGISTERED)).toEqual([unknownTool(1), other]);
  });

  it('keeps every warning until the server has said what it has, or when tools is not a list', () => {
    expect(withoutProvided([unknownTool(0)], ['add_numbers'], null)).toEqual([unknownTool(0)]);
    expect(withoutProvided([unknownTool(0)], undefined, REGISTERED)).toEqual([unknownTool(0)]);
  });
});
