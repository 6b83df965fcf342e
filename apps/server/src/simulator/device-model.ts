import type { CycleReport, ModelSettings, TelemetryValue } from './model';
import type { Rng } from './rng';
import { initialSteriliser, stepSteriliser, steriliserValues, type SteriliserState } from './steriliser-model';
import { initialWaterline, stepWaterline, waterlineValues, type WaterlineState } from './waterline-model';

export type DeviceKind = 'waterline' | 'steriliser';

/**
 * One simulated device's process, whatever its kind: the only mutable wrapper around the pure
 * models, so the runner need not know which one it drives.
 */
export interface DeviceProcess {
  readonly kind: DeviceKind;
  /** Advances by simulated seconds; returns the cycles that finished meanwhile. */
  advance(seconds: number): CycleReport[];
  values(): Record<string, TelemetryValue>;
}

export function createProcess(kind: DeviceKind, rng: Rng, settings: ModelSettings): DeviceProcess {
  if (kind === 'waterline') {
    let state: WaterlineState = initialWaterline(rng, settings);
    return {
      kind,
      advance(seconds) {
        const next = stepWaterline(state, seconds, rng, settings);
        state = next.state;
        return next.cycles;
      },
      values: () => waterlineValues(state),
    };
  }
  let state: SteriliserState = initialSteriliser(rng, settings);
  return {
    kind,
    advance(seconds) {
      const next = stepSteriliser(state, seconds, rng, settings);
      state = next.state;
      return next.cycles;
    },
    values: () => steriliserValues(state),
  };
}
