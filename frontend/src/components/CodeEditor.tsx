// A CodeMirror 6 editor as a controlled React component. Changes made from
// outside (props) are applied without echoing back through onChange.
import { useEffect, useEffectEvent, useRef } from 'react';
import { Annotation, EditorState, type Extension } from '@codemirror/state';
import { EditorView, keymap, placeholder as placeholderExt, lineNumbers, highlightActiveLine } from '@codemirror/view';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { bracketMatching, indentOnInput, syntaxHighlighting } from '@codemirror/language';
import { codeHighlightStyle } from './codeTheme';

const External = Annotation.define<boolean>();

export interface CodeEditorProps {
  value: string;
  onChange?: (value: string) => void;
  extensions?: Extension[];
  readOnly?: boolean;
  lineNumbers?: boolean;
  placeholder?: string;
  className?: string;
  ariaLabel?: string;
  testId?: string;
  id?: string;
  /** A one-line field: Tab moves to the next control instead of indenting (no keyboard trap). */
  tabMovesFocus?: boolean;
  /** Lets the parent reach the view (to scroll to a line, focus ...). */
  onView?: (view: EditorView | null) => void;
}

export function CodeEditor(props: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const emitChange = useEffectEvent((text: string) => props.onChange?.(text));
  const announceView = useEffectEvent((v: EditorView | null) => props.onView?.(v));

  // The editor is built once, from the props it mounts with; value changes are pushed below.
  const build = useEffectEvent((parent: HTMLDivElement) => {
    const exts: Extension[] = [
      history(),
      keymap.of([...defaultKeymap, ...historyKeymap, ...(props.tabMovesFocus ? [] : [indentWithTab])]),
      syntaxHighlighting(codeHighlightStyle, { fallback: true }),
      bracketMatching(),
      indentOnInput(),
      EditorView.lineWrapping,
      EditorState.readOnly.of(props.readOnly ?? false),
      EditorView.editable.of(!(props.readOnly ?? false)),
      EditorView.updateListener.of((u) => {
        if (!u.docChanged) return;
        if (u.transactions.some((t) => t.annotation(External))) return;
        emitChange(u.state.doc.toString());
      }),
      // tabindex: a read-only view is not contenteditable, and its scrolled text must still be reachable by keyboard.
      EditorView.contentAttributes.of({
        tabindex: '0',
        'aria-label': props.ariaLabel ?? 'code',
        ...(props.testId ? { 'data-testid': props.testId } : {}),
        ...(props.id ? { id: props.id } : {}),
      }),
      ...(props.lineNumbers ? [lineNumbers(), highlightActiveLine()] : []),
      ...(props.placeholder ? [placeholderExt(props.placeholder)] : []),
      ...(props.extensions ?? []),
    ];
    return new EditorView({ parent, state: EditorState.create({ doc: props.value, extensions: exts }) });
  });

  useEffect(() => {
    if (!host.current) return;
    const v = build(host.current);
    view.current = v;
    announceView(v);
    return () => {
      announceView(null);
      v.destroy();
      view.current = null;
    };
  }, []);

  useEffect(() => {
    const v = view.current;
    if (!v) return;
    const current = v.state.doc.toString();
    const next = props.value;
    if (current === next) return;
    // Replace only the part that changed: keeps the scroll position, the
    // cursor and the cost of a large document's update small.
    let start = 0;
    const min = Math.min(current.length, next.length);
    while (start < min && current.charCodeAt(start) === next.charCodeAt(start)) start++;
    let end = 0;
    while (end < min - start && current.charCodeAt(current.length - 1 - end) === next.charCodeAt(next.length - 1 - end)) end++;
    v.dispatch({
      changes: { from: start, to: current.length - end, insert: next.slice(start, next.length - end) },
      annotations: External.of(true),
    });
  }, [props.value]);

  return <div ref={host} className={`code-editor ${props.className ?? ''}`} />;
}

export { External };
