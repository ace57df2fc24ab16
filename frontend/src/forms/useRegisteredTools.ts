import { useEffect, useState } from 'react';
import { api, errorText } from '../api/client';
import type { ToolInfo } from '../api/types';

// The server's tools change when it is redeployed or the user adds or checks an MCP server (on the
// account page, another page load): asked once per page load (again after a failure).
let asked: Promise<ToolInfo[]> | null = null;

function registeredTools(): Promise<ToolInfo[]> {
  asked ??= api.tools().catch((e: unknown) => {
    asked = null;
    throw e;
  });
  return asked;
}

/** The tools this server gives agents (GET /tools: the built-ins, then the user's MCP tools); null until known. */
export function useRegisteredTools(): { tools: ToolInfo[] | null; error: string | null } {
  const [state, setState] = useState<{ tools: ToolInfo[] | null; error: string | null }>({ tools: null, error: null });
  useEffect(() => {
    let live = true;
    registeredTools().then(
      (tools) => live && setState({ tools, error: null }),
      (e) => live && setState({ tools: null, error: errorText(e) }),
    );
    return () => {
      live = false;
    };
  }, []);
  return state;
}
