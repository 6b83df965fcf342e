/**
 * The leave process every tenant gets (docs/workflow.md, "Leave"): the applicant's approver
 * (`taskUser`, chosen on the form) decides; a leave longer than 3 days then goes to the
 * candidates of group `hr` (the 人事 role); a rejection at either step returns the request to the
 * applicant (`applyUser`), who resubmits it (pass) or withdraws it (reject). With diagram
 * information, so the web's viewer can draw it.
 */
export const LEAVE_PROCESS_XML = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI" xmlns:dc="http://www.omg.org/spec/DD/20100524/DC" xmlns:di="http://www.omg.org/spec/DD/20100524/DI" xmlns:flowable="http://flowable.org/bpmn" id="leaveDefinitions" targetNamespace="http://www.mes-console.local/flow">
  <process id="leave" name="请假流程" isExecutable="true">
    <documentation>员工提交 → 审批人审批 → 超过 3 天再由人事审批;驳回退回员工调整后重新提交或撤销</documentation>
    <startEvent id="start" name="提交申请">
      <outgoing>flowStart</outgoing>
    </startEvent>
    <exclusiveGateway id="gwJoin">
      <incoming>flowStart</incoming>
      <incoming>flowResubmit</incoming>
      <outgoing>flowToManager</outgoing>
    </exclusiveGateway>
    <userTask id="managerAudit" name="审批人审批" flowable:assignee="\${taskUser}" flowable:formKey="leave-handle">
      <incoming>flowToManager</incoming>
      <outgoing>flowManagerDone</outgoing>
    </userTask>
    <exclusiveGateway id="gwManager" default="flowShortApproved">
      <incoming>flowManagerDone</incoming>
      <outgoing>flowShortApproved</outgoing>
      <outgoing>flowToHr</outgoing>
      <outgoing>flowManagerReject</outgoing>
    </exclusiveGateway>
    <userTask id="hrAudit" name="人事审批" flowable:candidateGroups="hr" flowable:formKey="leave-handle">
      <incoming>flowToHr</incoming>
      <outgoing>flowHrDone</outgoing>
    </userTask>
    <exclusiveGateway id="gwHr" default="flowHrReject">
      <incoming>flowHrDone</incoming>
      <outgoing>flowHrApproved</outgoing>
      <outgoing>flowHrReject</outgoing>
    </exclusiveGateway>
    <endEvent id="endHrApproved" name="审批通过">
      <incoming>flowHrApproved</incoming>
    </endEvent>
    <endEvent id="endApproved" name="审批通过">
      <incoming>flowShortApproved</incoming>
    </endEvent>
    <exclusiveGateway id="gwAdjustJoin">
      <incoming>flowManagerReject</incoming>
      <incoming>flowHrReject</incoming>
      <outgoing>flowToAdjust</outgoing>
    </exclusiveGateway>
    <userTask id="adjust" name="调整申请" flowable:assignee="\${applyUser}" flowable:formKey="leave-adjust">
      <incoming>flowToAdjust</incoming>
      <outgoing>flowAdjustDone</outgoing>
    </userTask>
    <exclusiveGateway id="gwAdjust" default="flowCancel">
      <incoming>flowAdjustDone</incoming>
      <outgoing>flowResubmit</outgoing>
      <outgoing>flowCancel</outgoing>
    </exclusiveGateway>
    <endEvent id="endCancelled" name="撤销申请">
      <incoming>flowCancel</incoming>
    </endEvent>
    <sequenceFlow id="flowStart" sourceRef="start" targetRef="gwJoin" />
    <sequenceFlow id="flowToManager" sourceRef="gwJoin" targetRef="managerAudit" />
    <sequenceFlow id="flowManagerDone" sourceRef="managerAudit" targetRef="gwManager" />
    <sequenceFlow id="flowShortApproved" sourceRef="gwManager" targetRef="endApproved" />
    <sequenceFlow id="flowToHr" sourceRef="gwManager" targetRef="hrAudit">
      <conditionExpression xsi:type="tFormalExpression">\${pass &amp;&amp; days &gt; 3}</conditionExpression>
    </sequenceFlow>
    <sequenceFlow id="flowManagerReject" sourceRef="gwManager" targetRef="gwAdjustJoin">
      <conditionExpression xsi:type="tFormalExpression">\${!pass}</conditionExpression>
    </sequenceFlow>
    <sequenceFlow id="flowHrDone" sourceRef="hrAudit" targetRef="gwHr" />
    <sequenceFlow id="flowHrApproved" sourceRef="gwHr" targetRef="endHrApproved">
      <conditionExpression xsi:type="tFormalExpression">\${pass}</conditionExpression>
    </sequenceFlow>
    <sequenceFlow id="flowHrReject" sourceRef="gwHr" targetRef="gwAdjustJoin" />
    <sequenceFlow id="flowToAdjust" sourceRef="gwAdjustJoin" targetRef="adjust" />
    <sequenceFlow id="flowAdjustDone" sourceRef="adjust" targetRef="gwAdjust" />
    <sequenceFlow id="flowResubmit" sourceRef="gwAdjust" targetRef="gwJoin">
      <conditionExpression xsi:type="tFormalExpression">\${pass}</conditionExpression>
    </sequenceFlow>
    <sequenceFlow id="flowCancel" sourceRef="gwAdjust" targetRef="endCancelled" />
  </process>
  <bpmndi:BPMNDiagram id="leaveDiagram">
    <bpmndi:BPMNPlane id="leavePlane" bpmnElement="leave">
      <bpmndi:BPMNShape id="start_di" bpmnElement="start"><dc:Bounds x="100" y="222" width="36" height="36" /></bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="gwJoin_di" bpmnElement="gwJoin" isMarkerVisible="true"><dc:Bounds x="170" y="215" width="50" height="50" /></bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="managerAudit_di" bpmnElement="managerAudit"><dc:Bounds x="250" y="200" width="100" height="80" /></bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="gwManager_di" bpmnElement="gwManager" isMarkerVisible="true"><dc:Bounds x="400" y="215" width="50" height="50" /></bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="hrAudit_di" bpmnElement="hrAudit"><dc:Bounds x="500" y="80" width="100" height="80" /></bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="gwHr_di" bpmnElement="gwHr" isMarkerVisible="true"><dc:Bounds x="650" y="95" width="50" height="50" /></bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="endHrApproved_di" bpmnElement="endHrApproved"><dc:Bounds x="750" y="102" width="36" height="36" /></bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="endApproved_di" bpmnElement="endApproved"><dc:Bounds x="750" y="222" width="36" height="36" /></bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="gwAdjustJoin_di" bpmnElement="gwAdjustJoin" isMarkerVisible="true"><dc:Bounds x="525" y="345" width="50" height="50" /></bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="adjust_di" bpmnElement="adjust"><dc:Bounds x="620" y="330" width="100" height="80" /></bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="gwAdjust_di" bpmnElement="gwAdjust" isMarkerVisible="true"><dc:Bounds x="770" y="345" width="50" height="50" /></bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="endCancelled_di" bpmnElement="endCancelled"><dc:Bounds x="870" y="352" width="36" height="36" /></bpmndi:BPMNShape>
      <bpmndi:BPMNEdge id="flowStart_di" bpmnElement="flowStart"><di:waypoint x="136" y="240" /><di:waypoint x="170" y="240" /></bpmndi:BPMNEdge>
      <bpmndi:BPMNEdge id="flowToManager_di" bpmnElement="flowToManager"><di:waypoint x="220" y="240" /><di:waypoint x="250" y="240" /></bpmndi:BPMNEdge>
      <bpmndi:BPMNEdge id="flowManagerDone_di" bpmnElement="flowManagerDone"><di:waypoint x="350" y="240" /><di:waypoint x="400" y="240" /></bpmndi:BPMNEdge>
      <bpmndi:BPMNEdge id="flowShortApproved_di" bpmnElement="flowShortApproved"><di:waypoint x="450" y="240" /><di:waypoint x="750" y="240" /></bpmndi:BPMNEdge>
      <bpmndi:BPMNEdge id="flowToHr_di" bpmnElement="flowToHr"><di:waypoint x="425" y="215" /><di:waypoint x="425" y="120" /><di:waypoint x="500" y="120" /></bpmndi:BPMNEdge>
      <bpmndi:BPMNEdge id="flowManagerReject_di" bpmnElement="flowManagerReject"><di:waypoint x="425" y="265" /><di:waypoint x="425" y="370" /><di:waypoint x="525" y="370" /></bpmndi:BPMNEdge>
      <bpmndi:BPMNEdge id="flowHrDone_di" bpmnElement="flowHrDone"><di:waypoint x="600" y="120" /><di:waypoint x="650" y="120" /></bpmndi:BPMNEdge>
      <bpmndi:BPMNEdge id="flowHrApproved_di" bpmnElement="flowHrApproved"><di:waypoint x="700" y="120" /><di:waypoint x="750" y="120" /></bpmndi:BPMNEdge>
      <bpmndi:BPMNEdge id="flowHrReject_di" bpmnElement="flowHrReject"><di:waypoint x="675" y="145" /><di:waypoint x="675" y="300" /><di:waypoint x="550" y="300" /><di:waypoint x="550" y="345" /></bpmndi:BPMNEdge>
      <bpmndi:BPMNEdge id="flowToAdjust_di" bpmnElement="flowToAdjust"><di:waypoint x="575" y="370" /><di:waypoint x="620" y="370" /></bpmndi:BPMNEdge>
      <bpmndi:BPMNEdge id="flowAdjustDone_di" bpmnElement="flowAdjustDone"><di:waypoint x="720" y="370" /><di:waypoint x="770" y="370" /></bpmndi:BPMNEdge>
      <bpmndi:BPMNEdge id="flowResubmit_di" bpmnElement="flowResubmit"><di:waypoint x="795" y="395" /><di:waypoint x="795" y="450" /><di:waypoint x="195" y="450" /><di:waypoint x="195" y="265" /></bpmndi:BPMNEdge>
      <bpmndi:BPMNEdge id="flowCancel_di" bpmnElement="flowCancel"><di:waypoint x="820" y="370" /><di:waypoint x="870" y="370" /></bpmndi:BPMNEdge>
    </bpmndi:BPMNPlane>
  </bpmndi:BPMNDiagram>
</definitions>
`;
