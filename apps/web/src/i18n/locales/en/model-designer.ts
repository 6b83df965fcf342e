import type { modelDesigner as zh } from '../zh/model-designer';

export const modelDesigner: typeof zh = {
  titleNew: 'New model',
  titleEdit: 'Design model',
  description: 'Description',
  importXml: 'Import XML',
  importTitle: 'Paste BPMN 2.0 XML',
  importFailed: 'This XML cannot be read',
  save: 'Save',
  cancel: 'Cancel',
  saved: 'Model saved',
  newName: 'New process',
};
