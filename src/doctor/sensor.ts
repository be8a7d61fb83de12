// Which Hall sensor a board carries, for `crownhead doctor`: the limits its
// verdict judges readings against (the zero levels a working part gives, the
// guaranteed output ceiling and floor, one coin's rise on a typical part), and
// telling a DRV5055A3 from an SS49E when the builder does not say: the
// DRV5055A3's zero levels sit within ±10 counts of VCC/2 (the SS49E's spread
// over ±51) and a coin raises it about 1.8 × as far. Pure.

import { MAGNETS, MV_PER_COUNT, SENSORS, discBz, sensor, z1, type Sensor } from '../sensors/magnet-physics.ts';

/** The sensors the doctor knows (and --sensor takes). */
export const DOCTOR_SENSORS = ['SS49E', 'DRV5055A3'] as const;
export type DoctorSensor = (typeof DOCTOR_SENSORS)[number];

export interface SensorLimits {
  sn: Sensor;
  /** zero-field readings a working part gives, counts, with a margin for the ADC's reference */
  zeroRange: [number, number];
  /** a reading at or past these has reached the end of the part's guaranteed output span, counts */
  top: number;
  bottom: number;
  /** one centred coin of the specified magnet on a typical part, counts */
  nominalRise: number;
}

const counts = (mv: number) => mv / MV_PER_COUNT;
const SPEC = MAGNETS.find((m) => m.key === '12x1-N35')!;

export function limitsOf(key: DoctorSensor | string): SensorLimits {
  const sn = SENSORS.find((s) => s.key === key) ?? sensor('SS49E');
  return {
    sn,
    zeroRange: [counts(sn.qMin) - 15, counts(sn.qMax) + 15],
    top: counts(sn.outMax) - 4,
    bottom: counts(sn.outMin) + 4,
    nominalRise: counts(sn.sens * discBz(SPEC, 0, z1())),
  };
}

/** Zero levels spread over at most this many counts (between the 2nd lowest and 2nd highest) on a DRV5055A3 board. */
const DRV_ZERO_SPREAD = 30;

/**
 * The sensor the readings fit: a DRV5055A3 when the empty board's zero levels
 * are that tightly grouped round VCC/2 and one coin's median rise is well
 * above what an SS49E gives; otherwise the SS49E.
 */
export function detectSensor(zero: readonly number[], medianRise: number | null): DoctorSensor {
  const live = zero.filter((z) => z > 300 && z < 720).sort((a, b) => a - b);
  if (live.length < 8 || medianRise === null) return 'SS49E';
  const spread = live[live.length - 2] - live[1];
  const mid = live[Math.floor(live.length / 2)];
  const drv = limitsOf('DRV5055A3'),
    ss = limitsOf('SS49E');
  const centred = mid >= drv.zeroRange[0] && mid <= drv.zeroRange[1];
  return spread <= DRV_ZERO_SPREAD && centred && medianRise > 1.35 * ss.nominalRise ? 'DRV5055A3' : 'SS49E';
}
