/*
 * sensor_model.h — the Hall sensor model of the emulator: the voltage, in
 * millivolts, on the ADC input for one conversion of the sensor under
 * `square`, as a first real build gives it.
 *
 * Two sources of the noise-free level:
 *  - LEVELS (from the host, src/sensors/hall-model.ts): the realistic model —
 *    per-part sensitivity and zero level over the SS49E's datasheet range,
 *    coins placed off-centre, each coin's magnet ±8 % (N35 remanence and
 *    thickness tolerance), king stacks, upside-down coins, crosstalk, from the
 *    field table hardware/tools/physics.ts computes. The board source
 *    src/sensors/emulator.ts always uses this (and sends NOISE, SEED and
 *    WARMUP from the same model).
 *  - the built-in model (SET/PLACE/LIFT/START/CLEAR), for the firmware-only
 *    tests and the bench: centred coins of the chosen magnet (12 × 1 mm N35,
 *    533 G for one coin, 788 G for a stack at the design height, see
 *    hardware/README.md) on parts spread over the same datasheet range
 *    (2.25–2.75 V at 0 G, 1.0–1.75 mV/G).
 *
 * Then, on both:
 *  - warm-up drift (WARMUP): the board's temperature rises by `rise` °C with
 *    an exponential approach (time constant `tau`, simulated time) and each
 *    sensor's zero level moves by its own coefficient (µV/°C: the SS49E's null
 *    drift, ≈ 0.3–0.5 count/°C, either sign) times that rise. Off until set.
 *  - noise, two parts (src/sensors/magnet-physics.ts FRAME_NOISE has the
 *    figure and its reasoning; the host sends it with NOISE): one drawn per
 *    visit of a channel (the sensor's own output noise below the ADC's rate,
 *    supply ripple the ratiometric output and the AVCC reference do not
 *    share, the mux's charge injection), σ 8.6 mV ≈ 1.76 counts, shared by
 *    the conversions of that visit; and one per conversion (the ADC itself at
 *    a 1 MHz ADC clock), σ 4.9 mV ≈ 1 count. Both Gaussian-ish (sum of four
 *    uniforms, as src/common/prng.ts gaussianish), from a seeded xorshift32
 *    (SEED): the same seed, the same sequence of draws. A frame averages 4
 *    conversions per scan over 1 or 2 scans at 100 frames/s (178 scans/s: 2
 *    in 78 % of frames, so 1/scans averages 0.61): σ² ≈ (1.76² + 1²/4) × 0.61
 *    + the mean's rounding 1/12 ≈ 2.05, σ ≈ 1.45 counts per frame; measured
 *    1.49 (test/firmware/emulator.test.ts).
 *  - the built-in model is clipped to the SS49E's guaranteed output span,
 *    1.0 V to 4.0 V (datasheet "output voltage span", the same figures as
 *    magnet-physics.ts SENSORS); LEVELS come clipped to the fitted sensor's
 *    span by the host's model (an SS49E or a DRV5055A3), so here only to 0–5 V.
 * The settling ghost (the first conversion after the ADC's input or the mux
 * channel changes still carries part of the voltage converted before) is
 * crownhead-emu.c's, around this.
 */
#ifndef CROWNHEAD_SENSOR_MODEL_H
#define CROWNHEAD_SENSOR_MODEL_H

#include <math.h>
#include <stdint.h>

#define MODEL_SPAN_MIN_MV 1000.0
#define MODEL_SPAN_MAX_MV 4000.0
#define MODEL_MAN_GAUSS 533.0
#define MODEL_KING_GAUSS 788.0

static uint32_t model_rng = 0x12345678u;
/* noise-free level per square set by LEVELS; < 0 = use the built-in model */
static double model_level_mv[33] = {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1};
/* noise σ, mV: per visit of a channel and per conversion (see above; NOISE sets them) */
static double model_visit_sigma_mv = 8.6;
static double model_conv_sigma_mv = 4.9;
/* this visit's draw per square */
static double model_visit_mv[33];
/* warm-up: rise (°C), time constant (ms), each sensor's zero drift (mV/°C); rise 0 = none */
static double model_warm_rise_c = 0, model_warm_tau_ms = 1;
static double model_drift_mv_per_c[33];

static inline uint32_t model_rand(void) { /* xorshift32 */
  model_rng ^= model_rng << 13;
  model_rng ^= model_rng >> 17;
  model_rng ^= model_rng << 5;
  return model_rng;
}

/* the generator from a seed (any 32-bit number; xorshift32 must not start at 0) */
static inline void model_seed(uint32_t seed) {
  model_rng = seed * 2654435761u ^ 0x12345678u;
  if (!model_rng) model_rng = 0x12345678u;
}

/* unit variance, never beyond ±3.47 (sum of four uniforms) */
static inline double model_gauss(void) {
  double s = 0;
  for (int k = 0; k < 4; k++) s += (double)model_rand() / 4294967296.0;
  return (s - 2.0) * 1.7320508075688772;
}

/* fixed per-square "part variation" in [-1, 1) from the square number */
static inline double model_spread(int square, unsigned salt) {
  uint32_t h = (uint32_t)square * 2654435761u ^ salt;
  h ^= h >> 15;
  h *= 2246822519u;
  h ^= h >> 13;
  return (double)(h & 0xFFFF) / 32768.0 - 1.0;
}

/* the board's temperature rise at simulated time `ms` since power-on, °C */
static inline double model_warmth_c(double ms) {
  if (model_warm_rise_c == 0) return 0;
  return model_warm_rise_c * (1.0 - exp(-ms / model_warm_tau_ms));
}

/*
 * One conversion of the sensor under `square` at simulated time `ms`;
 * `fresh`: the first conversion of a new visit of its channel (a new visit
 * draw). Unrounded mV.
 */
static inline double sensor_millivolts(int square, int coins, double ms, int fresh) {
  double mv = model_level_mv[square];
  double lo = 0.0, hi = 5000.0;
  if (mv < 0) {
    lo = MODEL_SPAN_MIN_MV;
    hi = MODEL_SPAN_MAX_MV;
    double q = 2500.0 + 250.0 * model_spread(square, 0xA5A5u);    /* 2.25–2.75 V */
    double sens = 1.375 + 0.375 * model_spread(square, 0x5A5Au);  /* 1.0–1.75 mV/G */
    mv = q + sens * (coins == 1 ? MODEL_MAN_GAUSS : coins >= 2 ? MODEL_KING_GAUSS : 0.0);
  }
  mv += model_drift_mv_per_c[square] * model_warmth_c(ms);
  if (mv < lo) mv = lo;
  if (mv > hi) mv = hi;
  if (fresh) model_visit_mv[square] = model_visit_sigma_mv * model_gauss();
  mv += model_visit_mv[square] + model_conv_sigma_mv * model_gauss();
  if (mv < 0) mv = 0;
  if (mv > 5000) mv = 5000;
  return mv;
}

#endif
