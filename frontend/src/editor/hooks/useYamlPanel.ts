// Whether the YAML view shows beside the canvas (remembered for the next visit).
import { useEffect, useRef, useState } from 'react';
import type { EditorStore } from '../../store/editorStore';
import { initialShowYaml, rememberShowYaml } from '../yamlPanelPreference';

export function useYamlPanel(store: EditorStore) {
  const [showYaml, setShowYaml] = useState(initialShowYaml);
  const toggleYaml = () => {
    rememberShowYaml(!showYaml);
    setShowYaml(!showYaml);
  };

  // The canvas changes width with the YAML panel: fit the graph to it again.
  const firstYaml = useRef(true);
  useEffect(() => {
    if (firstYaml.current) {
      firstYaml.current = false;
      return;
    }
    store.getState().requestFit();
  }, [showYaml, store]);

  return { showYaml, toggleYaml };
}
