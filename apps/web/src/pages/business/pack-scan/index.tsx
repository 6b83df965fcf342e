import { Alert, App, Button, Card, Flex, Form, Input, Select, Tag, theme, TreeSelect, Typography } from 'antd';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import {
  carResource,
  deptResource,
  lineResource,
  loadResource,
  LoadStatus,
  packResource,
  PACK_BY_CODES_PATH,
  PACK_CODE_PATTERN,
  PACK_MOVE_PATH,
  packMoveAllowed,
  packMoveRefused,
  PackState,
  type PackBrief,
  type PackByCodes,
} from '@mes/contracts';
import { ApiError } from '../../../api/http';
import { apiPost } from '../../../api/server-state';
import { useApiWrite, useFetchNow, useResourceRead } from '../../../api/use-api';
import { stateTag, useLang, type Lang } from '../pack/pack-tags';
import { pageTexts } from '../../../i18n/page-texts';

const TEXT = pageTexts('packScan');
type Text = (typeof TEXT)['zh'];

type Place = 'clinic' | 'base';
/** One station of the loop: the state it moves packs to and what it asks of the user. */
interface Station {
  key: string;
  to: PackState;
  name: Record<Lang, string>;
  /** The department the move happens at, and whether it must be chosen. */
  dept?: { place: Place; required: boolean };
  car?: boolean;
  load?: boolean;
  patient?: boolean;
}

/**
 * The stations a pack passes (DOMAIN.md "Packs and recall"), in the loop's order. Receipt at the
 * base and washing are one move (picked up → cleaning): the states have no step between them.
 */
const STATIONS: readonly Station[] = [
  {
    key: 'pickup',
    to: PackState.pickedUp,
    name: { zh: '诊所回收(装车)', en: 'Pick-up at a clinic' },
    dept: { place: 'clinic', required: true },
    car: true,
  },
  {
    key: 'receipt',
    to: PackState.cleaning,
    name: { zh: '中心接收/清洗', en: 'Receipt at base / cleaning' },
    dept: { place: 'base', required: false },
  },
  { key: 'cleaned', to: PackState.cleaned, name: { zh: '清洗完成', en: 'Cleaned' } },
  { key: 'load', to: PackState.sterilising, name: { zh: '装载灭菌', en: 'Into a load' }, load: true },
  {
    key: 'delivery',
    to: PackState.delivered,
    name: { zh: '发放到诊所', en: 'Delivery to a clinic' },
    dept: { place: 'clinic', required: true },
    car: true,
  },
  {
    key: 'use',
    to: PackState.inUse,
    name: { zh: '患者使用', en: 'Use on a patient' },
    dept: { place: 'clinic', required: false },
    patient: true,
  },
  {
    key: 'return',
    to: PackState.awaitingPickup,
    name: { zh: '用后待回收', en: 'Used, awaiting pick-up' },
    dept: { place: 'clinic', required: false },
  },
];

/** A scanned code: the pack it names (or why none), and what the last move did to it. */
interface Scanned {
  code: string;
  pack?: PackBrief;
  /** No pack has the code, or it is not a code at all. */
  problem?: string;
  /** The server's refusal of this pack's move. */
  refusal?: string;
  moved?: boolean;
}

interface TreeNode {
  title: string;
  value: string;
  children?: TreeNode[];
}

interface PlaceValues {
  deptId?: string;
  lineId?: string;
  carId?: string;
  loadId?: string;
  patientCase?: string;
  chairNo?: string;
  clinician?: string;
}

/** A tag as wide as its text in the card's column (a flex column would stretch it). */
const FIT = { alignSelf: 'flex-start' } as const;

const fill = (text: string, values: Record<string, string | number>) =>
  Object.entries(values).reduce((s, [k, v]) => s.replace(`{${k}}`, String(v)), text);

type Page = { records: Record<string, unknown>[] };
type Choice = { value: string; label: string };
const NO_DEPTS: TreeNode[] = [];
/** A picker's first 200 rows (read silently: without an answer the picker is empty). */
const PICKER_PAGE = { size: 200 };

/** The message of a failed request, as the server wrote it in the user's language. */
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Opens the rear camera (the barcode library loads only now) and hands each code read to `onCode`. */
function CameraView({ text, onCode, onClose }: { text: Text; onCode(code: string): void; onClose(): void }) {
  const video = useRef<HTMLVideoElement>(null);
  const [failure, setFailure] = useState('');
  // The camera outlives renders; it calls the latest handler, not the one of its first render.
  const handler = useRef(onCode);
  useEffect(() => {
    handler.current = onCode;
  });
  useEffect(() => {
    let stop: (() => void) | undefined;
    let gone = false;
    void import('./camera')
      .then(({ startCamera }) => startCamera(video.current as HTMLVideoElement, (code) => handler.current(code)))
      .then((s) => {
        if (gone) s();
        else stop = s;
      })
      .catch((error: unknown) => setFailure(fill(text.cameraFailed, { why: messageOf(error) })));
    return () => {
      gone = true;
      stop?.();
    };
  }, [text]);
  return (
    <Flex vertical gap={8}>
      {failure ? <Alert type="warning" showIcon message={failure} data-testid="scan-camera-failed" /> : null}
      <video ref={video} muted playsInline style={{ width: '100%', maxHeight: 280, background: '#000' }} />
      <Button onClick={onClose}>{text.cameraStop}</Button>
    </Flex>
  );
}

/**
 * 扫码流转 (docs/packs.md "Scan to move"): pick the station, scan packs (a keyboard-wedge scanner
 * types the code and Enter into the focused box; or the camera), see each pack's state and whether
 * the station's move is allowed (`PACK_MOVES`), then confirm: the allowed packs go through the
 * move route with where and with whom. Made for a phone held in one hand.
 */
export default function PackScanScreen() {
  const lang = useLang();
  const text: Text = TEXT[lang];
  const { message } = App.useApp();
  const [form] = Form.useForm<PlaceValues>();
  const [stationKey, setStationKey] = useState(STATIONS[0]?.key ?? 'pickup');
  const station = STATIONS.find((s) => s.key === stationKey) ?? (STATIONS[0] as Station);
  const [scanned, setScanned] = useState<Scanned[]>([]);
  const [code, setCode] = useState('');
  const [camera, setCamera] = useState(false);
  const [busy, setBusy] = useState(false);
  const depts = useResourceRead<TreeNode[]>(deptResource, 'tree', undefined, { silent: true }).data ?? NO_DEPTS;
  const lines =
    useResourceRead<Page, Choice[]>(lineResource, 'page', PICKER_PAGE, {
      silent: true,
      select: (page) => page.records.map((r) => ({ value: String(r.id), label: String(r.name ?? '') })),
    }).data ?? [];
  const cars =
    useResourceRead<Page, Choice[]>(carResource, 'page', PICKER_PAGE, {
      silent: true,
      select: (page) =>
        page.records.map((r) => ({ value: String(r.id), label: `${String(r.name ?? '')} ${String(r.plate ?? '')}` })),
    }).data ?? [];
  const loads =
    useResourceRead<Page, Choice[]>(
      loadResource,
      'page',
      { ...PICKER_PAGE, state: LoadStatus.open, descs: 'loadNo' },
      {
        silent: true,
        enabled: !!station.load,
        select: (page) => page.records.map((r) => ({ value: String(r.id), label: String(r.loadNo ?? '') })),
      },
    ).data ?? [];
  const fetchNow = useFetchNow();
  const move = useApiWrite(
    (body: Record<string, unknown>) => apiPost<number>(PACK_MOVE_PATH, body, { silent: true }),
    [packResource],
  );
  const input = useRef<HTMLInputElement>(null);
  const { token } = theme.useToken();

  /** Looks the codes up and adds (or refreshes) their rows; a code already listed stays once. */
  const look = async (codes: string[]) => {
    const good = codes.filter((c) => PACK_CODE_PATTERN.test(c));
    const bad = codes.filter((c) => !PACK_CODE_PATTERN.test(c));
    let found: PackByCodes = { packs: [], unknown: good };
    if (good.length) {
      try {
        found = await fetchNow<PackByCodes>(PACK_BY_CODES_PATH, { codes: good.join(',') });
      } catch (error) {
        void message.error(messageOf(error));
        return;
      }
    }
    const byCode = new Map(found.packs.map((p) => [p.code, p]));
    const rowOf = (c: string): Scanned => {
      const pack = byCode.get(c);
      if (pack) return { code: c, pack };
      return { code: c, problem: fill(bad.includes(c) ? text.badCode : text.unknown, { code: c }) };
    };
    setScanned((list) => {
      const fresh = codes.map(rowOf);
      const kept = list.map((row) => fresh.find((f) => f.code === row.code) ?? row);
      const added = fresh.filter((f) => !list.some((row) => row.code === f.code));
      // The newest scan on top, where the user's eye is.
      return [...added.reverse(), ...kept];
    });
  };

  const onScan = (raw: string) => {
    // A wedge scanner may deliver several labels at once; spaces and commas separate them.
    const codes = [...new Set(raw.split(/[\s,;]+/).filter(Boolean))];
    setCode('');
    if (codes.length) void look(codes);
  };

  // A pack the server refused stays out until the station changes (or it is scanned again).
  const movable = scanned.filter((s) => s.pack && !s.moved && !s.refusal && packMoveAllowed(s.pack.state, station.to));

  const confirm = async () => {
    let place: PlaceValues;
    try {
      place = await form.validateFields();
    } catch {
      return;
    }
    const payload = (ids: string[]) => ({ ids: ids.join(','), state: station.to, ...place });
    const ids = movable.map((s) => (s.pack as PackBrief).id);
    if (!ids.length) return;
    setBusy(true);
    const refusals = new Map<string, string>();
    let moved = 0;
    try {
      moved = await move(payload(ids));
    } catch (error) {
      if (!(error instanceof ApiError)) {
        void message.error(messageOf(error));
        setBusy(false);
        return;
      }
      // The batch is all or nothing; one by one, every pack the server takes moves and each
      // refused one shows the server's own reason.
      for (const row of movable) {
        try {
          moved += await move(payload([(row.pack as PackBrief).id]));
        } catch (one) {
          refusals.set(row.code, messageOf(one));
        }
      }
    }
    const done = new Set(movable.map((s) => s.code).filter((c) => !refusals.has(c)));
    setScanned((list) =>
      list.map((row) =>
        refusals.has(row.code)
          ? { ...row, refusal: refusals.get(row.code) }
          : done.has(row.code)
            ? { ...row, moved: true, refusal: undefined }
            : row,
      ),
    );
    if (moved) void message.success(fill(text.movedMsg, { n: moved }));
    // The moved packs' states as the server now has them; refused rows keep their reason.
    if (done.size) await look([...done]).catch(() => undefined);
    setScanned((list) => list.map((row) => (done.has(row.code) ? { ...row, moved: true } : row)));
    setBusy(false);
    input.current?.focus();
  };

  const deptTree = useMemo(() => depts, [depts]);
  const required = (name: string) => [{ required: true, message: fill(text.required, { name }) }];

  const verdict = (row: Scanned): ReactNode => {
    if (row.problem)
      return (
        <Typography.Text type="danger" data-testid="scan-problem">
          {row.problem}
        </Typography.Text>
      );
    const pack = row.pack as PackBrief;
    if (row.refusal)
      return (
        <Typography.Text type="danger" data-testid="scan-refusal">
          {row.refusal}
        </Typography.Text>
      );
    if (row.moved)
      return (
        <Tag color="green" style={FIT}>
          {text.moved}
        </Tag>
      );
    if (packMoveAllowed(pack.state, station.to))
      return (
        <Tag color="blue" style={FIT} data-testid="scan-allowed">
          {text.allowed}
        </Tag>
      );
    return (
      <Typography.Text type="danger" data-testid="scan-refusal">
        {packMoveRefused(pack.code, pack.state, station.to)[lang]}
      </Typography.Text>
    );
  };

  return (
    <Flex vertical gap={12} style={{ maxWidth: 640, padding: 12 }} data-testid="pack-scan-screen">
      <Form form={form} layout="vertical" requiredMark={false}>
        <Form.Item label={text.station} style={{ marginBottom: 8 }}>
          <Select
            data-testid="scan-station"
            size="large"
            value={stationKey}
            onChange={(key: string) => {
              setStationKey(key);
              form.resetFields();
              setScanned((list) => list.map((row) => ({ ...row, moved: false, refusal: undefined })));
            }}
            options={STATIONS.map((s) => ({ value: s.key, label: s.name[lang] }))}
          />
        </Form.Item>
        {station.dept ? (
          <Form.Item
            name="deptId"
            label={station.dept.place === 'clinic' ? text.clinic : text.base}
            rules={station.dept.required ? required(station.dept.place === 'clinic' ? text.clinic : text.base) : []}
            style={{ marginBottom: 8 }}
          >
            <TreeSelect
              data-testid="scan-dept"
              allowClear
              showSearch
              treeDefaultExpandAll
              treeNodeFilterProp="title"
              treeData={deptTree}
            />
          </Form.Item>
        ) : null}
        {station.car ? (
          <Flex gap={8}>
            <Form.Item name="lineId" label={text.line} style={{ flex: 1, marginBottom: 8 }}>
              <Select allowClear showSearch optionFilterProp="label" options={lines} />
            </Form.Item>
            <Form.Item name="carId" label={text.car} style={{ flex: 1, marginBottom: 8 }}>
              <Select allowClear showSearch optionFilterProp="label" options={cars} />
            </Form.Item>
          </Flex>
        ) : null}
        {station.load ? (
          <Form.Item name="loadId" label={text.load} rules={required(text.load)} style={{ marginBottom: 8 }}>
            <Select data-testid="scan-load" showSearch optionFilterProp="label" options={loads} />
          </Form.Item>
        ) : null}
        {station.patient ? (
          <>
            <Form.Item
              name="patientCase"
              label={text.patientCase}
              rules={required(text.patientCase)}
              style={{ marginBottom: 8 }}
            >
              <Input data-testid="scan-patient-case" maxLength={64} />
            </Form.Item>
            <Flex gap={8}>
              <Form.Item name="chairNo" label={text.chairNo} style={{ flex: 1, marginBottom: 8 }}>
                <Input data-testid="scan-chair" maxLength={32} />
              </Form.Item>
              <Form.Item name="clinician" label={text.clinician} style={{ flex: 2, marginBottom: 8 }}>
                <Input data-testid="scan-clinician" maxLength={64} />
              </Form.Item>
            </Flex>
          </>
        ) : null}
      </Form>
      <Input
        ref={(el) => {
          input.current = el?.input ?? null;
        }}
        data-testid="scan-input"
        size="large"
        autoFocus
        autoComplete="off"
        enterKeyHint="done"
        placeholder={text.scanHint}
        value={code}
        onChange={(e) => setCode(e.target.value)}
        onPressEnter={() => onScan(code)}
      />
      {camera ? (
        <CameraView text={text} onCode={(c) => onScan(c)} onClose={() => setCamera(false)} />
      ) : (
        <Button data-testid="scan-camera" onClick={() => setCamera(true)}>
          {text.camera}
        </Button>
      )}
      <Typography.Text type="secondary" data-testid="scan-count">
        {fill(text.count, { n: scanned.length, m: movable.length })}
      </Typography.Text>
      {scanned.length ? (
        <Flex vertical gap={8}>
          {scanned.map((row) => (
            <Card key={row.code} size="small" data-testid="scan-row" data-code={row.code}>
              <Flex justify="space-between" align="start" gap={8}>
                <Flex vertical gap={2} style={{ minWidth: 0 }}>
                  <Typography.Text strong>
                    {row.code} {row.pack ? stateTag(row.pack.state, lang) : null}
                  </Typography.Text>
                  {row.pack ? (
                    <Typography.Text type="secondary">
                      {[row.pack.articleName, row.pack.deptName, row.pack.loadNo, row.pack.expiryDate]
                        .filter(Boolean)
                        .join(' · ')}
                    </Typography.Text>
                  ) : null}
                  {verdict(row)}
                </Flex>
                <Button
                  size="small"
                  type="text"
                  aria-label={text.remove}
                  onClick={() => setScanned((list) => list.filter((r) => r.code !== row.code))}
                >
                  ×
                </Button>
              </Flex>
            </Card>
          ))}
        </Flex>
      ) : (
        <Typography.Text type="secondary">{text.none}</Typography.Text>
      )}
      <Flex
        gap={8}
        style={{ position: 'sticky', bottom: 0, background: token.colorBgLayout, paddingTop: 8, paddingBottom: 8 }}
      >
        <Button
          type="primary"
          size="large"
          block
          data-testid="scan-confirm"
          disabled={!movable.length}
          loading={busy}
          onClick={() => void confirm()}
        >
          {fill(text.confirm, { n: movable.length })}
        </Button>
        <Button size="large" data-testid="scan-clear" onClick={() => setScanned([])}>
          {text.clear}
        </Button>
      </Flex>
    </Flex>
  );
}
