import { formatDateTime, type BrokenLink } from '@mes/contracts';
import type { ChainHead } from './record-chain-head';
import { hashVersionOf, recordHash, stateHash, type RecordRow } from './record-hash';

/** Why a chain does not hold, in both languages; `verify` adds the chain's partition (`BrokenLink`). */
export type ChainProblem = Omit<BrokenLink, 'partition'>;

const problem = (id: string, chainSeq: number, reason: string, reasonEn: string): ChainProblem => ({
  id,
  chainSeq,
  reason,
  reasonEn,
});

/**
 * One chain read in order, against its head: every position from the head's start to its last
 * is a row or a position the retention job removed; each row links to the previous one and
 * still hashes to what it was; the last row is the one the head names. The first fault is kept
 * and the rest of the chain is only counted.
 */
export class ChainWalk {
  private nextSeq: number;
  private prevHash: string;
  private readonly removed: Map<number, string>;
  private seen = 0;
  private fault: ChainProblem | undefined;

  constructor(
    private readonly head: ChainHead | undefined,
    private readonly fieldsOf: (version: number) => readonly string[],
  ) {
    this.nextSeq = head?.firstSeq ?? 1;
    this.prevHash = head?.firstPrevHash ?? '';
    this.removed = new Map(head?.removed ?? []);
  }

  /** Skips the removed positions before `seq`, taking each one's hash as the link. */
  private skipRemoved(seq: number): void {
    for (let hash = this.removed.get(this.nextSeq); hash !== undefined && this.nextSeq < seq;) {
      this.prevHash = hash;
      this.nextSeq += 1;
      hash = this.removed.get(this.nextSeq);
    }
  }

  step(row: RecordRow): void {
    if (this.fault) return;
    this.fault = this.check(row);
    this.seen += 1;
  }

  private check(row: RecordRow): ChainProblem | undefined {
    const id = String(row.id);
    const seq = Number(row.chainSeq);
    const head = this.head;
    if (!head) return problem(id, seq, '记录链没有链头(链头被删除)', 'the chain has no head (its head was deleted)');
    this.skipRemoved(seq);
    if (seq > this.nextSeq)
      return problem(
        '',
        this.nextSeq,
        `第 ${this.nextSeq} 条记录缺失(被删除)`,
        `record no. ${this.nextSeq} is missing (deleted)`,
      );
    if (seq < this.nextSeq)
      return problem(
        id,
        seq,
        `第 ${seq} 条记录不在链头记载的范围内(链从第 ${head.firstSeq} 条起),是在应用之外写入的`,
        `record no. ${seq} is outside the range the chain head records (the chain starts at no. ${head.firstSeq}): written outside the application`,
      );
    if (seq > head.lastSeq)
      return problem(
        id,
        seq,
        `第 ${seq} 条记录在链头记载的最后一条(第 ${head.lastSeq} 条)之后,是在应用之外写入的`,
        `record no. ${seq} comes after the last one the chain head records (no. ${head.lastSeq}): written outside the application`,
      );
    const prevHash = String(row.prevHash);
    if (prevHash !== this.prevHash)
      return seq === head.firstSeq
        ? problem(
            id,
            seq,
            '链首记录的前一哈希不符',
            'the first record of the chain does not carry the expected previous hash',
          )
        : problem(
            id,
            seq,
            '与前一条记录的哈希不符(前一条记录被改动)',
            'does not match the previous record’s hash (the previous record was changed)',
          );
    const version = hashVersionOf(row);
    if (recordHash(this.fieldsOf(version), row, prevHash) !== row.rowHash)
      return problem(
        id,
        seq,
        '记录内容与其哈希不符(记录被改动)',
        'the record’s content does not match its hash (the record was changed)',
      );
    // Rows of hash version 1 carry a state hash only once the engine has reviewed or superseded them.
    if ((version >= 2 || row.stateHash) && stateHash(row) !== row.stateHash)
      return problem(
        id,
        seq,
        '审核或更正状态与其哈希不符(状态被改动)',
        'the review or correction state does not match its hash (the state was changed)',
      );
    this.prevHash = String(row.rowHash);
    this.nextSeq = seq + 1;
    return undefined;
  }

  /** The chain's fault once all its rows have been read, if any. */
  finish(): ChainProblem | undefined {
    if (this.fault || !this.head) return this.fault;
    const head = this.head;
    this.skipRemoved(Number.MAX_SAFE_INTEGER);
    if (this.nextSeq <= head.lastSeq)
      return problem(
        '',
        this.nextSeq,
        `链头记载到第 ${head.lastSeq} 条,自第 ${this.nextSeq} 条起的记录缺失(最新的记录被删除)`,
        `the chain head records ${head.lastSeq} records; from no. ${this.nextSeq} on they are missing (the newest records were deleted)`,
      );
    if (this.prevHash !== head.lastHash)
      return problem(
        '',
        head.lastSeq,
        '最新一条记录的哈希与链头不符(记录被改动后重算了哈希)',
        'the newest record’s hash does not match the chain head (the record was changed and re-hashed)',
      );
    if (this.seen !== head.rowCount)
      return problem(
        '',
        head.lastSeq,
        `链头记载 ${head.rowCount} 条记录,现有 ${this.seen} 条`,
        `the chain head records ${head.rowCount} records; ${this.seen} are there`,
      );
    if (head.reanchoredAt) {
      const at = formatDateTime(head.reanchoredAt);
      return problem(
        '',
        head.firstSeq,
        `链头曾丢失,于 ${at} 按现存记录重建;此前被删除的记录无法查证`,
        `the chain head was lost and set up again from the records left at ${at}; records deleted before cannot be accounted for`,
      );
    }
    return undefined;
  }

  /** Whether the head expects rows that were never read (a chain whose rows are all gone). */
  get expectsRows(): boolean {
    return this.head !== undefined && this.head.lastSeq >= this.head.firstSeq;
  }
}
