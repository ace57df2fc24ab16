import { describe, expect, it } from 'vitest';
import { maskedHeader, tracingChange, tracingForm } from './tracingForm';

const STORED = {
  mode: 'own' as const,
  endpoint: 'https://collector.example.com/v1/traces',
  header_names: ['Authorization'],
  link_template: 'https://langfuse.example.com/trace/{trace_id}',
  server_collector: false,
  server_link_template: '',
};

describe('the tracing form', () => {
  it('starts from the stored settings with the headers blank, and sends null for them: they stay', () => {
    const form = tracingForm(STORED);
    expect(form.headers).toBe('');
    expect(tracingChange(form)).toEqual({
      mode: 'own',
      endpoint: 'https://collector.example.com/v1/traces',
      headers: null,
      link_template: 'https://langfuse.example.com/trace/{trace_id}',
    });
  });

  it('sends headers typed in, or an empty text to clear the stored ones', () => {
    const form = tracingForm(STORED);
    expect(tracingChange({ ...form, headers: ' Authorization=Basic abc ' }).headers).toBe('Authorization=Basic abc');
    expect(tracingChange({ ...form, clearHeaders: true }).headers).toBe('');
    expect(tracingChange({ ...form, headers: 'x=1', clearHeaders: true }).headers).toBe('x=1');
  });

  it('shows a stored header by its name, its value masked', () => {
    expect(maskedHeader('Authorization')).toBe('Authorization=••••••');
  });
});
