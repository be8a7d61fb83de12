/*
 * sensor_model.h — the Hall sensor model of the emulator: the output, in
 * millivolts, of the sensor under `square`.
 *
 * Two sources of the noise-free level:
 *  - LEVELS (from the host, src/sensors/hall-model.ts): the realistic model —
 *    per-part sensitivity and zero level over the SS49E's datasheet range,
 *    coins placed off-centre, king stacks, upside-down coins, crosstalk, from
 *    the field table hardware/tools/physics.ts computes. The board source
 *    src/sensors/emulator.ts always uses this.
 *  - the built-in model (SET/PLACE/LIFT/START/CLEAR), for the firmware-only
 *    tests and the bench: centred coins of the chosen magnet (12 × 1 mm N35,
 *    533 G for one coin, 788 G for a stack at the design height, see
 *    hardware/README.md) on parts spread over the same datasheet range
 *    (2.25–2.75 V at 0 G, 1.0–1.75 mV/G).
 * Both then get the same conversion-to-conversion noise (triangular, about
 * ±6 mV). The built-in model is clipped to the SS49E's output span (0.9 V and
 * its guaranteed 4.0 V ceiling); LEVELS come clipped to the fitted sensor's
 * span by the host's model (an SS49E or a DRV5055A3), so here only to 0–5 V.
 */
#ifndef CROWNHEAD_SENSOR_MODEL_H
#define CROWNHEAD_SENSOR_MODEL_H

#include <stdint.h>

#define MODEL_SPAN_MIN_MV 900.0
#define MODEL_SPAN_MAX_MV 4000.0
#define MODEL_MAN_GAUSS 533.0
#define MODEL_KING_GAUSS 788.0

static uint32_t model_rng = 0x12345678u;
/* noise-free level per square set by LEVELS; < 0 = use the built-in model */
static double model_level_mv[33] = {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1};

static inline uint32_t model_rand(void) { /* xorshift32 */
  model_rng ^= model_rng << 13;
  model_rng ^= model_rng >> 17;
  model_rng ^= model_rng << 5;
  return model_rng;
}

/* fixed per-square "part variation" in [-1, 1) from the square number */
static inline double model_spread(int square, unsigned salt) {
  uint32_t h = (uint32_t)square * 2654435761u ^ salt;
  h ^= h >> 15;
  h *= 2246822519u;
  h ^= h >> 13;
  return (double)(h & 0xFFFF) / 32768.0 - 1.0;
}

static inline uint32_t sensor_millivolts(int square, int coins) {
  double mv = model_level_mv[square];
  double lo = 0.0, hi = 5000.0;
  if (mv < 0) {
    lo = MODEL_SPAN_MIN_MV;
    hi = MODEL_SPAN_MAX_MV;
    double q = 2500.0 + 250.0 * model_spread(square, 0xA5A5u);    /* 2.25–2.75 V */
    double sens = 1.375 + 0.375 * model_spread(square, 0x5A5Au);  /* 1.0–1.75 mV/G */
    mv = q + sens * (coins == 1 ? MODEL_MAN_GAUSS : coins >= 2 ? MODEL_KING_GAUSS : 0.0);
  }
  /* noise: triangular, about ±6 mV */
  mv += (double)(model_rand() % 7) + (double)(model_rand() % 7) - 6.0;
  if (mv < lo) mv = lo;
  if (mv > hi) mv = hi;
  return (uint32_t)(mv + 0.5);
}

#endif
