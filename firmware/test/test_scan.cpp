// test_scan.cpp — scanner scheduling (settle, discard, averaging, channel
// order, non-blocking) and frame accumulation.
#include "accum.h"
#include "check.h"
#include "config.h"
#include "fake_hal.h"
#include "scanner.h"

static Scanner sc;
static Accumulator acc;

TEST(scanner_waits_for_settle_without_blocking) {
  fake.reset();
  sc.begin(&fakeHal);
  CHECK_EQ(fake.channel, (uint8_t)0);
  CHECK(!sc.poll());
  CHECK_EQ(fake.reads, (uint32_t)0);  // returned at once, no busy wait
  fake.advance(SCAN_SETTLE_US - 1);
  sc.poll();
  CHECK_EQ(fake.reads, (uint32_t)0);
  fake.advance(1);
  sc.poll();
  // per mux: one discarded + SCAN_SAMPLES kept conversions
  CHECK_EQ(fake.reads, (uint32_t)(2 * (1 + SCAN_SAMPLES)));
  CHECK_EQ(fake.channel, (uint8_t)1);  // next channel selected, settling meanwhile
  CHECK(!sc.poll());  // just selected: must settle again
  CHECK_EQ(fake.reads, (uint32_t)(2 * (1 + SCAN_SAMPLES)));
}

TEST(scanner_full_scan_order_and_count) {
  fake.reset();
  sc.begin(&fakeHal);
  std::vector<int> order;
  int done = 0, polls = 0;
  while (done == 0 && polls < 1000) {
    fake.advance(SCAN_SETTLE_US);
    uint8_t ch = fake.channel;
    uint32_t before = fake.reads;
    bool full = sc.poll();
    polls++;
    if (fake.reads != before) order.push_back(ch);
    if (full) done++;
  }
  CHECK_EQ(order.size(), (size_t)16);
  bool inOrder = true;
  for (int i = 0; i < (int)order.size(); i++) inOrder = inOrder && order[i] == i;
  CHECK(inOrder);
  CHECK_EQ(sc.scans(), (uint32_t)1);
  CHECK_EQ(fake.channel, (uint8_t)0);  // wrapped for the next scan
}

TEST(scanner_discards_stale_conversion_and_sums_samples) {
  fake.reset();
  for (int c = 0; c < 16; c++) {
    fake.value[0][c] = (uint16_t)(100 + c);
    fake.value[1][c] = (uint16_t)(600 + c);
  }
  sc.begin(&fakeHal);
  for (int i = 0; i < 16; i++) {
    fake.advance(SCAN_SETTLE_US);
    sc.poll();
  }
  // the fake returns 1023 on the first conversion after an input change
  CHECK_EQ((int)sc.raw()[0], SCAN_SAMPLES * 100);
  CHECK_EQ((int)sc.raw()[15], SCAN_SAMPLES * 115);
  CHECK_EQ((int)sc.raw()[16], SCAN_SAMPLES * 600);
  CHECK_EQ((int)sc.raw()[31], SCAN_SAMPLES * 615);
}

TEST(scan_time_gives_over_100_scans_per_second) {
  fake.reset();
  sc.begin(&fakeHal);
  uint32_t t0 = fake.now;
  while (sc.scans() < 100) {
    sc.poll();
    fake.advance(4);
  }
  uint32_t us = fake.now - t0;
  // 100 scans with 13 µs conversions: well under a second (≥ 250 scans/s)
  CHECK(us < 400000);
}

TEST(accumulator_maps_squares_and_rounds_means) {
  fake.reset();
  fake.setSquare(1, 100);
  fake.setSquare(17, 700);
  fake.setSquare(32, 1023);
  sc.begin(&fakeHal);
  acc.reset();
  CHECK(acc.empty());
  for (int i = 0; i < 16; i++) {
    fake.advance(SCAN_SETTLE_US);
    if (sc.poll()) acc.add(sc.raw(), SCAN_SAMPLES);
  }
  fake.setSquare(1, 101);
  for (int i = 0; i < 16; i++) {
    fake.advance(SCAN_SETTLE_US);
    if (sc.poll()) acc.add(sc.raw(), SCAN_SAMPLES);
  }
  CHECK_EQ((int)acc.scans(), 2);
  uint16_t m[32];
  acc.means(m);
  CHECK_EQ((int)m[0], 101);  // (100 + 101) / 2 = 100.5 rounds up
  CHECK_EQ((int)m[16], 700);
  CHECK_EQ((int)m[31], 1023);
  CHECK_EQ((int)m[5], 512);
  acc.reset();
  CHECK(acc.empty());
}

TEST(accumulator_never_overflows) {
  uint16_t raw[32];
  for (int i = 0; i < 32; i++) raw[i] = (uint16_t)(SCAN_SAMPLES * (i == 3 ? 1023 : 300));
  acc.reset();
  for (long i = 0; i < 70000; i++) acc.add(raw, SCAN_SAMPLES);
  uint16_t m[32];
  acc.means(m);
  CHECK_EQ((int)m[3], 1023);
  CHECK_EQ((int)m[0], 300);
}
