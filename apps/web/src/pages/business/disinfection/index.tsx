import { Button, Tag } from 'antd';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { buttonCodes, disinfectionRecordResource, ParametricResult, RecallSource, RecordSource } from '@mes/contracts';
import { ResourcePage } from '../../../engine/resource-page';
import type { ResourcePageContext, ResourcePageProps, Row } from '../../../engine/resource-page-types';
import { PackRecallDialog } from '../verification/pack-recall';
import { CURVE_TEXT, CycleCurveDialog, type JudgedRecord } from './cycle-curve';
import { pageTexts } from '../../../i18n/page-texts';

const TEXT = pageTexts('disinfection');

/** The reason's half in the reader's language (`zh … / en …`, docs/lethality.md). */
const reasonIn = (reason: unknown, en: boolean) => {
  const text = String(reason ?? '');
  const at = text.indexOf(' / ');
  return at < 0 ? text : en ? text.slice(at + 3) : text.slice(0, at);
};

/**
 * 消毒记录: the generic record screen, with a 召回 tag before the number of every record a failed
 * biological indicator recalled (rows carry `recalled` and `recallHandled`, docs/records.md), where
 * the eye starts reading a row rather than in a column off to the right; the parametric result
 * (docs/lethality.md) as a tag whose tooltip names the limit a failed cycle broke, and 曲线 on a
 * record of a device cycle: its curve with the program's validated profile drawn over it.
 */
export default function DisinfectionScreen() {
  const { i18n } = useTranslation();
  const en = i18n.language.startsWith('en');
  const text = en ? TEXT.en : TEXT.zh;
  const render = useMemo<ResourcePageProps['render']>(
    () => ({
      recordNo: (value: unknown, row: Row) => (
        <>
          {row.recalled ? (
            <Tag color={row.recallHandled ? 'default' : 'red'} data-testid="disinfection-recalled">
              {row.recallHandled ? text.handled : text.recalled}
            </Tag>
          ) : null}
          <span title={String(value ?? '')}>{String(value ?? '')}</span>
        </>
      ),
      parametricResult: (value: unknown, row: Row) => {
        if (value === null || value === undefined || value === '') return null;
        const result = Number(value);
        if (result === ParametricResult.none) return <Tag>{text.none}</Tag>;
        const failed = result === ParametricResult.fail;
        return (
          <Tag
            color={failed ? 'red' : 'green'}
            title={failed ? reasonIn(row.parametricReason, en) : undefined}
            data-testid="disinfection-parametric"
          >
            {failed ? text.fail : text.pass}
          </Tag>
        );
      },
    }),
    [text, en],
  );
  // The load (batch) assembled for the record's cycle, and how many packs it holds (docs/packs.md).
  const extraColumns = useMemo<ResourcePageProps['extraColumns']>(
    () => [
      {
        key: 'loadNo',
        title: text.load,
        width: 170,
        render: (row: Row) =>
          row.loadNo ? (
            <span data-testid="disinfection-load">
              {String(row.loadNo)} ({text.packs.replace('{n}', String(row.loadPacks ?? 0))})
            </span>
          ) : null,
      },
    ],
    [text],
  );
  const curveText = en ? CURVE_TEXT.en : CURVE_TEXT.zh;
  const [curveOf, setCurveOf] = useState<JudgedRecord | null>(null);
  // A parametric failure's pack recall (rows carry `packRecallState`), in the verification records' dialog.
  const [recallOf, setRecallOf] = useState<{ id: string; recordNo: string } | null>(null);
  const [mayHandle, setMayHandle] = useState(false);
  const rowActions = useCallback(
    (row: Row, ctx: ResourcePageContext) =>
      Number(row.source) !== RecordSource.cycle && !row.packRecallState ? null : (
        <>
          {Number(row.source) === RecordSource.cycle ? (
            <Button
              type="link"
              size="small"
              onClick={() => setCurveOf({ ...row, id: String(row.id) })}
              data-testid="disinfection-curve-open"
            >
              {curveText.curve}
            </Button>
          ) : null}
          {row.packRecallState ? (
            <Button
              type="link"
              size="small"
              danger
              onClick={() => {
                setMayHandle(ctx.can(buttonCodes.disinfection.recall));
                setRecallOf({ id: String(row.id), recordNo: String(row.recordNo ?? '') });
              }}
              data-testid="disinfection-recall-open"
            >
              {text.packRecall}
            </Button>
          ) : null}
        </>
      ),
    [curveText, text],
  );
  return (
    <>
      <ResourcePage
        resource={disinfectionRecordResource}
        render={render}
        rowActions={rowActions}
        extraColumns={extraColumns}
      />
      {curveOf ? (
        <CycleCurveDialog
          record={curveOf}
          text={curveText}
          reasonIn={(reason) => reasonIn(reason, en)}
          onClose={() => setCurveOf(null)}
        />
      ) : null}
      <PackRecallDialog
        source={RecallSource.disinfection}
        record={recallOf}
        mayHandle={mayHandle}
        lang={en ? 'en' : 'zh'}
        onClose={() => setRecallOf(null)}
      />
    </>
  );
}
