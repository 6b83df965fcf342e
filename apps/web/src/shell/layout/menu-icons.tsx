import {
  AlertOutlined,
  ApartmentOutlined,
  ApiOutlined,
  AppstoreOutlined,
  AreaChartOutlined,
  AuditOutlined,
  BarChartOutlined,
  BarcodeOutlined,
  BlockOutlined,
  BookOutlined,
  BugOutlined,
  BuildOutlined,
  CalendarOutlined,
  CarOutlined,
  ClockCircleOutlined,
  CloudOutlined,
  CloudUploadOutlined,
  ClusterOutlined,
  CodeOutlined,
  CompassOutlined,
  ControlOutlined,
  DashboardOutlined,
  DatabaseOutlined,
  DeploymentUnitOutlined,
  DesktopOutlined,
  EnvironmentOutlined,
  ExperimentOutlined,
  FileSearchOutlined,
  FileTextOutlined,
  FlagOutlined,
  FolderOutlined,
  FormOutlined,
  FundOutlined,
  GlobalOutlined,
  HddOutlined,
  HomeOutlined,
  IdcardOutlined,
  InboxOutlined,
  KeyOutlined,
  LayoutOutlined,
  LineChartOutlined,
  LinkOutlined,
  LockOutlined,
  LoginOutlined,
  MedicineBoxOutlined,
  MenuOutlined,
  MessageOutlined,
  MonitorOutlined,
  NodeIndexOutlined,
  NotificationOutlined,
  PaperClipOutlined,
  PartitionOutlined,
  PieChartOutlined,
  PrinterOutlined,
  ProfileOutlined,
  ProjectOutlined,
  ReadOutlined,
  ReconciliationOutlined,
  SafetyCertificateOutlined,
  SafetyOutlined,
  ScheduleOutlined,
  SecurityScanOutlined,
  SettingOutlined,
  ShopOutlined,
  ShoppingOutlined,
  SolutionOutlined,
  TableOutlined,
  TagsOutlined,
  TeamOutlined,
  ThunderboltOutlined,
  ToolOutlined,
  UserOutlined,
  WarningOutlined,
} from '@ant-design/icons';
import type { ComponentType } from 'react';

/**
 * Menu `source` names (antd's icon names in kebab case, as the menu screen stores them) and the
 * icon each shows. Only these are bundled: importing every antd icon would weigh megabytes.
 */
const ICONS: Record<string, ComponentType> = {
  alert: AlertOutlined,
  apartment: ApartmentOutlined,
  api: ApiOutlined,
  appstore: AppstoreOutlined,
  'area-chart': AreaChartOutlined,
  audit: AuditOutlined,
  'bar-chart': BarChartOutlined,
  barcode: BarcodeOutlined,
  block: BlockOutlined,
  book: BookOutlined,
  bug: BugOutlined,
  build: BuildOutlined,
  calendar: CalendarOutlined,
  car: CarOutlined,
  'clock-circle': ClockCircleOutlined,
  cloud: CloudOutlined,
  'cloud-upload': CloudUploadOutlined,
  cluster: ClusterOutlined,
  code: CodeOutlined,
  compass: CompassOutlined,
  control: ControlOutlined,
  dashboard: DashboardOutlined,
  database: DatabaseOutlined,
  'deployment-unit': DeploymentUnitOutlined,
  desktop: DesktopOutlined,
  environment: EnvironmentOutlined,
  experiment: ExperimentOutlined,
  'file-search': FileSearchOutlined,
  'file-text': FileTextOutlined,
  flag: FlagOutlined,
  folder: FolderOutlined,
  form: FormOutlined,
  fund: FundOutlined,
  global: GlobalOutlined,
  hdd: HddOutlined,
  home: HomeOutlined,
  idcard: IdcardOutlined,
  inbox: InboxOutlined,
  key: KeyOutlined,
  layout: LayoutOutlined,
  'line-chart': LineChartOutlined,
  link: LinkOutlined,
  lock: LockOutlined,
  login: LoginOutlined,
  'medicine-box': MedicineBoxOutlined,
  menu: MenuOutlined,
  message: MessageOutlined,
  monitor: MonitorOutlined,
  'node-index': NodeIndexOutlined,
  notification: NotificationOutlined,
  'paper-clip': PaperClipOutlined,
  partition: PartitionOutlined,
  'pie-chart': PieChartOutlined,
  printer: PrinterOutlined,
  profile: ProfileOutlined,
  project: ProjectOutlined,
  read: ReadOutlined,
  reconciliation: ReconciliationOutlined,
  safety: SafetyOutlined,
  'safety-certificate': SafetyCertificateOutlined,
  schedule: ScheduleOutlined,
  'security-scan': SecurityScanOutlined,
  setting: SettingOutlined,
  shop: ShopOutlined,
  shopping: ShoppingOutlined,
  solution: SolutionOutlined,
  table: TableOutlined,
  tags: TagsOutlined,
  team: TeamOutlined,
  thunderbolt: ThunderboltOutlined,
  tool: ToolOutlined,
  user: UserOutlined,
  warning: WarningOutlined,
};

/** Shown for names this build does not know; picked by the menu's code so that groups still differ. */
const FALLBACKS: ComponentType[] = [
  AppstoreOutlined,
  FolderOutlined,
  BlockOutlined,
  LayoutOutlined,
  ProfileOutlined,
  ClusterOutlined,
  CompassOutlined,
  FlagOutlined,
];

/**
 * `SettingOutlined`, `setting`, `setting-outlined` and icon-font names such as `iconfont icon-setting`
 * all name the same icon.
 */
export function iconKey(source: string): string {
  const last = source.trim().split(/\s+/).pop() ?? '';
  return last
    .replace(/^icon(font)?[-_]?/i, '')
    .replace(/(Outlined|Filled|TwoTone)$/, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .toLowerCase()
    .replace(/_/g, '-')
    .replace(/-(outlined|filled|twotone)$/, '');
}

/** The icon of a menu: its own `source` when known, otherwise a stable fallback chosen by `seed`. */
export function menuIcon(source: string | undefined, seed: string): ComponentType {
  const known = source ? ICONS[iconKey(source)] : undefined;
  if (known) return known;
  let hash = 0;
  for (const ch of seed) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  return FALLBACKS[hash % FALLBACKS.length] ?? AppstoreOutlined;
}

export const knownIconKey = (source: string): boolean => iconKey(source) in ICONS;
