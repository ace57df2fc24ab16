// Where a JSON pointer sits in YAML text (1-based line), to put diagnostics
// of a structured edit on the YAML view's lines. Locating only, no rules.
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node as YamlNode } from 'yaml';
import { parsePointer } from './pointer';

export class LineFinder {
  private doc: ReturnType<typeof parseDocument> | null;
  private counter = new LineCounter();

  constructor(text: string) {
    try {
      this.doc = parseDocument(text, { lineCounter: this.counter, keepSourceTokens: false, uniqueKeys: false });
    } catch {
      this.doc = null;
    }
  }

  /** Line of the deepest node of the pointer that exists (the key line for a map entry). */
  line(pointer: string): number | null {
    if (!this.doc) return null;
    let node: unknown = this.doc.contents;
    let offset: number | null = rangeStart(node);
    for (const token of parsePointer(pointer)) {
      if (isMap(node)) {
        const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === token);
        if (!pair) break;
        offset = rangeStart(pair.key) ?? offset;
        node = pair.value;
      } else if (isSeq(node)) {
        const item = node.items[Number(token)];
        if (item === undefined) break;
        offset = rangeStart(item) ?? offset;
        node = item;
      } else break;
    }
    return offset === null ? null : this.counter.linePos(offset).line;
  }
}

function rangeStart(node: unknown): number | null {
  const range = (node as YamlNode | null | undefined)?.range;
  return Array.isArray(range) ? range[0] : null;
}
