// The CodeMirror extensions that highlight a file of a given language.
import type { Extension } from '@codemirror/state';
import { json } from '@codemirror/lang-json';
import { yaml } from '@codemirror/lang-yaml';
import { StreamLanguage } from '@codemirror/language';
import type { CodeLanguage } from './codeLanguage';
import { MODES } from './simpleModes';

const defined = new Map<CodeLanguage, Extension>();

export function highlightFor(language: CodeLanguage | null): Extension[] {
  if (language === 'json') return [json()];
  if (language === 'yaml') return [yaml()];
  const mode = language ? MODES[language] : undefined;
  if (!language || !mode) return [];
  // A StreamLanguage is built once per language and shared by every viewer.
  let ext = defined.get(language);
  if (!ext) {
    ext = StreamLanguage.define(mode);
    defined.set(language, ext);
  }
  return [ext];
}
