// A car and its line name each other, so both are defined in line.ts (no import cycle); the car
// is re-exported here under its own name, where the other definitions look for it.
export { carResource } from './line';
