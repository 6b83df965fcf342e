import 'bpmn-js/dist/assets/diagram-js.css';
import NavigatedViewer from 'bpmn-js/lib/NavigatedViewer';
import { useEffect, useRef, useState } from 'react';

interface Canvas {
  addMarker(id: string, marker: string): void;
  zoom(level: 'fit-viewport'): void;
}
interface Registry {
  get(id: string): unknown;
}

/**
 * The definition's diagram, read-only (pan and zoom), with the finished elements and the open
 * ones marked. In a module of its own so bpmn-js is fetched only by screens that draw a diagram.
 */
export default function BpmnDiagram(props: { xml: string; done: string[]; current: string[]; onError: () => void }) {
  const { xml, done, current, onError } = props;
  const host = useRef<HTMLDivElement>(null);
  const [ready, setReady] = useState(false);
  useEffect(() => {
    if (!host.current) return;
    const viewer = new NavigatedViewer({ container: host.current });
    let live = true;
    viewer
      .importXML(xml)
      .then(() => {
        if (!live) return;
        const canvas = viewer.get<Canvas>('canvas');
        const registry = viewer.get<Registry>('elementRegistry');
        const mark = (ids: string[], marker: string) => {
          for (const id of ids) if (registry.get(id)) canvas.addMarker(id, marker);
        };
        mark(done, 'mes-flow-done');
        mark(current, 'mes-flow-current');
        canvas.zoom('fit-viewport');
        setReady(true);
      })
      .catch(() => live && onError());
    return () => {
      live = false;
      viewer.destroy();
    };
    // The marks are part of what is drawn: a new step redraws the diagram.
  }, [xml, done.join(), current.join()]); // eslint-disable-line react-hooks/exhaustive-deps
  return <div ref={host} className="mes-flow-diagram" data-testid="flow-diagram" data-ready={ready || undefined} />;
}
