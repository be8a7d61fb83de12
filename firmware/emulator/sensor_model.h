/*
 * sensor_model.h — the Hall sensor + magnet model of the emulator: output of
 * the sensor under `square` with `coins` (0–2) stacked on it, in millivolts.
 * Numbers follow hardware/README.md: SS49E-class sensor (1.4 mV/G) at 5 V,
 * quiescent ≈ 2500 mV with a per-part spread, 8×1.5 mm N42 magnet 4 mm above
 * the Hall element: one centred coin ≈ 660 G ≈ +925 mV, a two-coin stack only
 * ≈ 1.36× that (the upper magnet is 3 mm further away), per-square gain
 * spread ±10 %, a few mV of noise. Coins are modelled centred.
 */
#ifndef CROWNHEAD_SENSOR_MODEL_H
#define CROWNHEAD_SENSOR_MODEL_H

#include <stdint.h>

static uint32_t model_rng = 0x12345678u;

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
  double mv = 2500.0 + 40.0 * model_spread(square, 0xA5A5u);    /* quiescent */
  double one = 925.0 * (1.0 + 0.10 * model_spread(square, 0x5A5Au)); /* one coin */
  if (coins == 1) mv += one;
  if (coins >= 2) mv += 1.36 * one;
  /* noise: triangular, about ±6 mV */
  mv += (double)(model_rand() % 7) + (double)(model_rand() % 7) - 6.0;
  if (mv < 0) mv = 0;
  if (mv > 5000) mv = 5000;
  return (uint32_t)(mv + 0.5);
}

#endif
