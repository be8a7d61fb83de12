// test_line.cpp — checksum, number formatting, the all-or-nothing output
// queue and its non-blocking pump.
#include "check.h"
#include "fake_hal.h"
#include "line.h"
#include "util.h"

TEST(checksum_matches_protocol_example) {
  CHECK_EQ((int)xorChecksum("H 002A", 6), 0x1B);
  CHECK(checksumOk("H 002A*1B"));
  CHECK(!checksumOk("H 002A*1C"));
}

TEST(hex_value_both_cases) {
  CHECK_EQ((int)hexValue('0'), 0);
  CHECK_EQ((int)hexValue('f'), 15);
  CHECK_EQ((int)hexValue('F'), 15);
  CHECK_EQ((int)hexValue('g'), -1);
}

static OutQueue q;

TEST(queue_formats_line_with_checksum) {
  fake.reset();
  q.begin();
  q.open();
  q.put("H ").hex(0x2A, 4);
  CHECK(q.close());
  q.pump(&fakeHal);
  CHECK_EQ(fake.tx, std::string("H 002A*1B\n"));
  CHECK(q.empty());
}

TEST(queue_decimal_and_hex_formatting) {
  fake.reset();
  q.begin();
  q.open();
  q.dec(0).put(' ').dec(7).put(' ').dec(4294967295UL).put(' ').hex(0x3FF, 3).put(' ').hex(5, 3);
  CHECK(q.close());
  q.pump(&fakeHal);
  CHECK_EQ(body(fake.lines()[0]), std::string("0 7 4294967295 3FF 005"));
  CHECK(checksumOk(fake.lines()[0]));
}

TEST(queue_is_all_or_nothing) {
  fake.reset();
  q.begin();
  int queued = 0;
  for (int i = 0; i < 10; i++) {
    q.open();
    q.put("F ").hex(i, 4).put(' ');
    for (int k = 0; k < 32; k++) q.hex(0x123, 3);
    if (q.close()) queued++;
  }
  CHECK_EQ(queued, 1);  // 192-byte queue holds one 107-byte frame
  CHECK_EQ((int)q.room(), 192 - 107);
  q.open();
  q.put("OK RATE");
  CHECK(q.close());  // a reply still fits beside it
  q.pump(&fakeHal);
  std::vector<std::string> l = fake.lines();
  CHECK_EQ(l.size(), (size_t)2);
  CHECK_EQ(l[0].size(), (size_t)106);
  CHECK(checksumOk(l[0]) && checksumOk(l[1]));
  CHECK_EQ(body(l[1]), std::string("OK RATE"));
}

TEST(pump_never_writes_more_than_tx_buffer_takes) {
  fake.reset();
  fake.txInstant = false;
  q.begin();
  q.open();
  q.put("F 0000 ");
  for (int k = 0; k < 32; k++) q.hex(k, 3);
  CHECK(q.close());
  q.pump(&fakeHal);
  CHECK_EQ(fake.tx.size(), (size_t)63);  // only what the 64-byte ring takes
  CHECK_EQ((int)fake.txUsed, 63);
  int rounds = 0;
  while (!q.empty() && rounds < 1000) {
    fake.advance(100);
    q.pump(&fakeHal);
    CHECK(fake.txUsed <= fake.txCapacity);
    rounds++;
  }
  CHECK(q.empty());
  CHECK_EQ(fake.lines().size(), (size_t)1);
  CHECK(checksumOk(fake.lines()[0]));
}

TEST(queue_wraps_around_its_ring) {
  fake.reset();
  q.begin();
  for (int i = 0; i < 50; i++) {  // lines of odd lengths walk the ring
    q.open();
    q.put("OK ").dec((uint32_t)i * 7919);
    CHECK(q.close());
    q.pump(&fakeHal);
  }
  std::vector<std::string> l = fake.lines();
  CHECK_EQ(l.size(), (size_t)50);
  CHECK_EQ(body(l[49]), std::string("OK 388031"));
  bool all = true;
  for (size_t i = 0; i < l.size(); i++) all = all && checksumOk(l[i]);
  CHECK(all);
}
