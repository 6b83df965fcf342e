import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { callApi, choose, newPage, poll, screenshot, signIn, useBrowser } from '../support/browser';
import { goInApp, presetSetting } from '../support/shell';

const browser = useBrowser();

/** A process of one user task with no people yet: the properties panel gives it its assignee. */
const approvalXml = (key: string) => `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI" xmlns:dc="http://www.omg.org/spec/DD/20100524/DC" xmlns:di="http://www.omg.org/spec/DD/20100524/DI" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="Defs_${key}" targetNamespace="http://bpmn.io/schema/bpmn">
  <bpmn:process id="${key}" name="采购审批 ${key}" isExecutable="true">
    <bpmn:startEvent id="start" name="提交"><bpmn:outgoing>f1</bpmn:outgoing></bpmn:startEvent>
    <bpmn:userTask id="approve" name="主管审批"><bpmn:incoming>f1</bpmn:incoming><bpmn:outgoing>f2</bpmn:outgoing></bpmn:userTask>
    <bpmn:endEvent id="end" name="结束"><bpmn:incoming>f2</bpmn:incoming></bpmn:endEvent>
    <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="approve" />
    <bpmn:sequenceFlow id="f2" sourceRef="approve" targetRef="end" />
  </bpmn:process>
  <bpmndi:BPMNDiagram id="d1">
    <bpmndi:BPMNPlane id="p1" bpmnElement="${key}">
      <bpmndi:BPMNShape id="start_di" bpmnElement="start"><dc:Bounds x="160" y="100" width="36" height="36" /></bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="approve_di" bpmnElement="approve"><dc:Bounds x="260" y="78" width="100" height="80" /></bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="end_di" bpmnElement="end"><dc:Bounds x="430" y="100" width="36" height="36" /></bpmndi:BPMNShape>
      <bpmndi:BPMNEdge id="f1_di" bpmnElement="f1"><di:waypoint x="196" y="118" /><di:waypoint x="260" y="118" /></bpmndi:BPMNEdge>
      <bpmndi:BPMNEdge id="f2_di" bpmnElement="f2"><di:waypoint x="360" y="118" /><di:waypoint x="430" y="118" /></bpmndi:BPMNEdge>
    </bpmndi:BPMNPlane>
  </bpmndi:BPMNDiagram>
</bpmn:definitions>
`;

const confirmOk = (page: Page) => page.locator('.ant-modal-confirm-btns .ant-btn-primary').click();

async function searchKey(page: Page, screenPath: string, key: string) {
  const screen = page.locator(`[data-screen="${screenPath}"]`);
  const input = screen.getByPlaceholder('请输入流程标识');
  await input.fill(key);
  await input.press('Enter');
  await poll(() => screen.locator('tbody').innerText()).toContain(key);
  return screen;
}

describe('workflow administration', () => {
  it('designs, lints, saves and deploys a model; suspends, activates and draws it; deletes its instance with a reason', async () => {
    const { context, page } = await newPage(browser());
    await signIn(page);
    const key = `e2e_buy_${Date.now().toString(36)}`;

    // 模型管理: a new model starts as a start event alone, which the server's linter refuses.
    await goInApp(page, '/flow/flow_model');
    const models = page.locator('[data-screen="/flow/flow_model"]');
    await models.getByTestId('flow-model-add').click();
    const modeler = page.getByTestId('flow-modeler');
    await modeler.locator('.djs-element[data-element-id="StartEvent_1"]').waitFor();
    await page.getByTestId('flow-model-save').click();
    const problems = page.getByTestId('flow-model-problems');
    await poll(() => problems.innerText()).toContain('流程模型校验失败');
    expect(await problems.innerText()).toContain('流程缺少结束事件');
    expect(await problems.locator('li').count()).toBeGreaterThan(0);
    await screenshot(page, 'workflow-admin-modeler-lint-zh');

    // A drawn process comes in through 导入XML; its user task gets an assignee in the properties panel.
    await page.getByTestId('flow-model-import').click();
    await page.getByTestId('flow-model-import-xml').fill(approvalXml(key));
    await page.getByTestId('flow-model-import-ok').click();
    await modeler.locator('.djs-element[data-element-id="approve"]').click();
    const panel = page.getByTestId('flow-properties-panel');
    await poll(() => panel.locator('.bio-properties-panel-header-label').innerText()).toContain('主管审批');
    const assignment = panel.locator('[data-group-id="group-CamundaPlatform__UserAssignment"]');
    // The panel speaks the interface's language for the fields the server reads.
    expect(await assignment.locator('.bio-properties-panel-group-header').innerText()).toContain('人员分配');
    await assignment.locator('.bio-properties-panel-group-header').click();
    await assignment.locator('#bio-properties-panel-assignee').fill('${initiator}');
    await page.getByTestId('flow-model-description').fill('e2e 采购');
    await screenshot(page, 'workflow-admin-modeler-zh');
    await page.getByTestId('flow-model-save').click();
    await modeler.waitFor({ state: 'detached' });
    await poll(() => models.locator('tbody').innerText()).toContain(key);
    const saved = await callApi<{ records: { id: string; xml: string }[] }>(
      page,
      `/api/blade-flow/model/list?modelKey=${key}`,
    );
    expect(saved.data.records[0]?.xml).toContain('camunda:assignee="${initiator}"');

    // 部署 under a category (dict flow).
    const modelRow = models.locator('tbody tr', { hasText: key });
    await modelRow.getByTestId('flow-model-deploy').click();
    const deployDialog = page.locator('.ant-modal-content', { has: page.getByTestId('flow-deploy-save') });
    await choose(page, deployDialog.locator('.ant-form-item', { hasText: '流程分类' }), '报销流程');
    await page.getByTestId('flow-deploy-save').click();
    await deployDialog.waitFor({ state: 'hidden' });

    // 流程管理: the definition, version 1, active; suspended it starts nothing.
    await goInApp(page, '/flow/flow_manager');
    const manager = await searchKey(page, '/flow/flow_manager', key);
    const defRow = manager.locator('tbody tr', { hasText: key });
    await poll(() => defRow.innerText()).toContain('报销流程');
    expect(await defRow.innerText()).toContain('激活');
    await defRow.getByTestId('flow-manager-suspend').click();
    await confirmOk(page);
    // The row's own 挂起 button reads like the state: wait for the button that follows it.
    await defRow.getByTestId('flow-manager-activate').waitFor();
    const refused = await callApi(page, '/api/blade-flow/work/start-process', { processDefinitionKey: key });
    expect(refused.code).toBe(400);
    expect(refused.msg).toBe('流程定义已挂起,不能发起或办理');
    await defRow.getByTestId('flow-manager-activate').click();
    await confirmOk(page);
    // 激活 is both the state and the suspended row's button: the 挂起 button's return says it landed.
    await defRow.getByTestId('flow-manager-suspend').waitFor();
    expect(await defRow.innerText()).toContain('激活');
    const started = await callApi<{ processInstanceId: string }>(page, '/api/blade-flow/work/start-process', {
      processDefinitionKey: key,
    });
    expect(started.code).toBe(200);

    // 流程图: the deployed XML drawn by the viewer.
    await defRow.getByTestId('flow-manager-diagram').click();
    const diagram = page.getByTestId('flow-diagram');
    await diagram.locator('.djs-element[data-element-id="approve"]').waitFor();
    await screenshot(page, 'workflow-admin-diagram-zh');
    await page.locator('.ant-modal-close').last().click();
    await diagram.waitFor({ state: 'detached' });

    // 部署 (upload): a broken file is refused with the server's message naming it; a good one is version 2.
    await manager.getByTestId('flow-upload').click();
    const uploadDialog = page.locator('.ant-modal-content', { has: page.getByTestId('flow-upload-save') });
    await choose(page, uploadDialog.locator('.ant-form-item', { hasText: '流程分类' }), '报销流程');
    const fileInput = uploadDialog.locator('input[type=file]');
    await fileInput.setInputFiles({ name: 'broken.bpmn', mimeType: 'application/xml', buffer: Buffer.from('<nope') });
    await page.getByTestId('flow-upload-save').click();
    await poll(() => page.getByTestId('flow-upload-problems').innerText()).toContain('broken.bpmn');
    await uploadDialog.locator('.ant-upload-list-item .anticon-delete').click();
    await fileInput.setInputFiles({
      name: `${key}.bpmn20.xml`,
      mimeType: 'application/xml',
      buffer: Buffer.from(
        approvalXml(key).replace(
          '<bpmn:userTask id="approve"',
          '<bpmn:userTask id="approve" camunda:assignee="${initiator}"',
        ),
      ),
    });
    await page.getByTestId('flow-upload-save').click();
    await uploadDialog.waitFor({ state: 'hidden' });
    await poll(async () => await manager.locator('tbody tr', { hasText: key }).count()).toBe(2);
    await screenshot(page, 'workflow-admin-manager-zh');

    // 流程跟踪: the running instance, its task and assignee; 删除 needs a reason.
    await goInApp(page, '/flow/flow_follow');
    const follow = await searchKey(page, '/flow/flow_follow', key);
    const instanceRow = follow.locator('tbody tr', { hasText: key });
    await poll(() => instanceRow.getByTestId('flow-follow-task').innerText()).toContain('主管审批');
    await screenshot(page, 'workflow-admin-follow-zh');
    await instanceRow.getByTestId('flow-follow-remove').click();
    await page.getByTestId('flow-follow-remove-ok').click();
    await poll(() => page.locator('.ant-modal-content').last().innerText()).toContain('请填写删除原因');
    await page.getByTestId('flow-follow-reason').fill('e2e 采购取消');
    await page.getByTestId('flow-follow-remove-ok').click();
    await poll(() => follow.locator('tbody tr', { hasText: key }).count()).toBe(0);
    const deleted = await callApi<{ records: { processInstanceId: string; flowStatus: number }[] }>(
      page,
      `/api/blade-flow/follow/list?flowStatus=3&processDefinitionKey=${key}`,
    );
    expect(deleted.data.records.map((r) => r.processInstanceId)).toEqual([started.data.processInstanceId]);
    await context.close();
  });

  it('reads in English', async () => {
    const { context, page } = await newPage(browser());
    await presetSetting(page, 'language', 'en');
    await signIn(page);
    await goInApp(page, '/flow/flow_model');
    const models = page.locator('[data-screen="/flow/flow_model"]');
    await models.getByTestId('flow-model-add').click();
    await page.getByTestId('flow-modeler').locator('.djs-element[data-element-id="StartEvent_1"]').waitFor();
    await page.getByTestId('flow-model-save').click();
    await poll(() => page.getByTestId('flow-model-problems').innerText()).toContain('The process model is invalid');
    await screenshot(page, 'workflow-admin-modeler-en');
    await page.getByTestId('flow-model-cancel').click();
    await goInApp(page, '/flow/flow_manager');
    const manager = page.locator('[data-screen="/flow/flow_manager"]');
    await poll(() => manager.locator('thead').innerText()).toContain('Process key');
    expect(await manager.getByTestId('flow-upload').innerText()).toBe('Deploy');
    await screenshot(page, 'workflow-admin-manager-en');
    await goInApp(page, '/flow/flow_follow');
    await poll(() => page.locator('[data-screen="/flow/flow_follow"] thead').innerText()).toContain('Current tasks');
    await screenshot(page, 'workflow-admin-follow-en');
    await context.close();
  });
});
