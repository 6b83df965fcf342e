import 'bpmn-js/dist/assets/diagram-js.css';
import 'bpmn-js/dist/assets/bpmn-js.css';
import './bpmn.css';
import NavigatedViewer from 'bpmn-js/lib/NavigatedViewer';
import { useEffect, useRef } from 'react';

export interface DiagramViewerProps {
  xml: string;
  onError(message: string): void;
}

/**
 * A deployed definition's diagram, read-only, with pan and zoom (bpmn-js's NavigatedViewer).
 * `onError` should be stable (a state setter): a new one draws the diagram again.
 */
export default function DiagramViewer({ xml, onError }: DiagramViewerProps) {
  const ref = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const container = ref.current;
    if (!container) return;
    const viewer = new NavigatedViewer({ container });
    viewer
      .importXML(xml)
      .then(() => (viewer.get('canvas') as { zoom(level: string): void }).zoom('fit-viewport'))
      .catch((error: unknown) => onError(error instanceof Error ? error.message : String(error)));
    return () => viewer.destroy();
  }, [xml, onError]);

  return <div className="flow-viewer" ref={ref} data-testid="flow-diagram" />;
}
