import 'bpmn-js/dist/assets/diagram-js.css';
import 'bpmn-js/dist/assets/bpmn-js.css';
import 'bpmn-js/dist/assets/bpmn-font/css/bpmn-embedded.css';
import '@bpmn-io/properties-panel/assets/properties-panel.css';
import './bpmn.css';
import BpmnModeler from 'bpmn-js/lib/Modeler';
import {
  BpmnPropertiesPanelModule,
  BpmnPropertiesProviderModule,
  CamundaPlatformPropertiesProviderModule,
} from 'bpmn-js-properties-panel';
import CamundaBehaviorsModule from 'camunda-bpmn-js-behaviors/lib/camunda-platform';
import camundaModdle from 'camunda-bpmn-moddle/resources/camunda.json';
import { useEffect, useRef } from 'react';
import { zhTranslateModule } from './zh-translate';

/** What the designer does with the diagram on the canvas. */
export interface ModelerHandle {
  importXml(xml: string): Promise<void>;
  saveXml(): Promise<string>;
}

export interface ModelerCanvasProps {
  /** The diagram first shown. */
  xml: string;
  /** The interface language when the modeler opened: its palette and panel speak it. */
  lang: 'zh' | 'en';
  onReady(handle: ModelerHandle): void;
  /** An import failed (not BPMN, or unreadable): the parser's message. */
  onImportError(message: string): void;
}

/**
 * bpmn-js's modeler with its properties panel in the Camunda dialect: the server reads
 * `assignee`, `candidateUsers`, `candidateGroups` and `formKey` in the `camunda:` namespace
 * (docs/workflow.md), which is what the panel's 用户分配 / Forms groups write. Its own chunk:
 * only the model screen's designer loads it.
 */
export default function ModelerCanvas({ xml, lang, onReady, onImportError }: ModelerCanvasProps) {
  const canvasRef = useRef<HTMLDivElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  // The first diagram only: later ones come through the handle, not a new modeler.
  const first = useRef({ xml, lang, onReady, onImportError });

  useEffect(() => {
    const canvas = canvasRef.current;
    const panel = panelRef.current;
    if (!canvas || !panel) return;
    const modeler = new BpmnModeler({
      container: canvas,
      propertiesPanel: { parent: panel },
      additionalModules: [
        BpmnPropertiesPanelModule,
        BpmnPropertiesProviderModule,
        CamundaPlatformPropertiesProviderModule,
        CamundaBehaviorsModule,
        ...(first.current.lang === 'zh' ? [zhTranslateModule] : []),
      ],
      moddleExtensions: { camunda: camundaModdle },
    });
    const show = async (text: string) => {
      try {
        await modeler.importXML(text);
        (modeler.get('canvas') as { zoom(level: string): void }).zoom('fit-viewport');
      } catch (error) {
        first.current.onImportError(error instanceof Error ? error.message : String(error));
        throw error;
      }
    };
    void show(first.current.xml).catch(() => undefined);
    first.current.onReady({
      importXml: show,
      async saveXml() {
        const { xml: saved } = await modeler.saveXML({ format: true });
        return saved ?? '';
      },
    });
    return () => modeler.destroy();
  }, []);

  return (
    <div className="flow-modeler" data-testid="flow-modeler">
      <div className="flow-modeler-canvas" ref={canvasRef} />
      <div className="flow-modeler-panel" ref={panelRef} data-testid="flow-properties-panel" />
    </div>
  );
}
