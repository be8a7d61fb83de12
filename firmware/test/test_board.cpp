// test_board.cpp — the whole firmware logic on the fake board: boot identity,
// stream rate, RATE/MODE, quiet-mode frames and heartbeat timing, replies and
// errors, serial back-pressure, id in EEPROM.
#include <stdlib.h>
#include <string.h>
#include "board.h"
#include "check.h"
#include "fake_hal.h"
#include "util.h"

static Board board;

// Send a command, run a little, return the first OK/E/I line that followed.
static std::string command(const std::string& cmd, uint32_t us = 20000) {
  size_t before = fake.lines().size();
  fake.send(cmd + "\n");
  runFor(board, us);
  std::vector<std::string> l = fake.lines();
  for (size_t i = before; i < l.size(); i++)
    if (l[i][0] == 'O' || l[i][0] == 'E' || l[i][0] == 'I') return l[i];
  return std::string();
}

TEST(boot_sends_identity_first) {
  fake.reset();
  board.begin(&fakeHal);
  runFor(board, 240000);
  CHECK(fake.tx.empty());  // nothing until the first scan-rate measurement
  runFor(board, 20000);
  std::vector<std::string> l = fake.lines();
  CHECK(!l.empty());
  CHECK(checksumOk(l[0]));
  std::string b = body(l[0]);
  CHECK_EQ(b.substr(0, 46), std::string("I CROWNHEAD proto=1 fw=1.0.0 id=crownhead n=32"));
  size_t p = b.find(" scan=");
  CHECK(p != std::string::npos);
  int scan = atoi(b.c_str() + p + 6);
  CHECK(scan >= 250 && scan <= 600);
  CHECK_EQ((int)board.scanRate(), scan);
  CHECK(b.find(" rate=100 mode=S") != std::string::npos);
}

TEST(stream_mode_sends_100_valid_frames_per_second) {
  boot(board);
  fake.tx.clear();
  runFor(board, 1000000);
  std::vector<std::string> f = linesStarting("F ");
  CHECK(f.size() >= 99 && f.size() <= 101);
  unsigned seq0 = 0, seq;
  std::vector<int> v;
  bool ok = true, gapless = true;
  for (size_t i = 0; i < f.size(); i++) {
    ok = ok && f[i].size() == 106 && checksumOk(f[i]) && parseFrame(f[i], &seq, &v);
    if (i == 0) seq0 = seq;
    gapless = gapless && seq == ((seq0 + i) & 0xFFFF);
  }
  CHECK(ok);
  CHECK(gapless);
  CHECK_EQ(fake.lines().size(), f.size());  // nothing else in stream mode
}

TEST(frames_carry_square_values_in_pdn_order) {
  boot(board);
  for (int s = 1; s <= 32; s++) fake.setSquare((uint8_t)s, (uint16_t)(s * 30));
  runFor(board, 30000);  // let a full frame period of new scans pass
  fake.tx.clear();
  runFor(board, 15000);
  std::vector<std::string> f = linesStarting("F ");
  CHECK(!f.empty());
  unsigned seq;
  std::vector<int> v;
  CHECK(parseFrame(f.back(), &seq, &v));
  bool match = v.size() == 32;
  for (int s = 1; match && s <= 32; s++) match = v[s - 1] == s * 30;
  CHECK(match);
}

TEST(frame_value_is_mean_of_scans_since_last_frame) {
  boot(board);
  CHECK_EQ(body(command("RATE 2")), std::string("OK RATE"));
  runFor(board, 600000);
  // half of the next 500 ms period at 500, half at 600 → mean ≈ 550
  size_t before = linesStarting("F ").size();
  while (linesStarting("F ").size() == before) runFor(board, 1000);
  fake.setSquare(9, 500);
  runFor(board, 250000);
  fake.setSquare(9, 600);
  before = linesStarting("F ").size();
  while (linesStarting("F ").size() == before) runFor(board, 1000);
  unsigned seq;
  std::vector<int> v;
  CHECK(parseFrame(linesStarting("F ").back(), &seq, &v));
  CHECK(v[8] >= 540 && v[8] <= 560);
}

TEST(rate_command_changes_frame_rate) {
  boot(board);
  CHECK_EQ(body(command("RATE 10")), std::string("OK RATE"));
  size_t before = linesStarting("F ").size();
  runFor(board, 1000000);
  size_t n = linesStarting("F ").size() - before;
  CHECK(n >= 9 && n <= 11);
  CHECK(command("?").find(" rate=10 ") != std::string::npos);
  CHECK_EQ(body(command("RATE 0")).substr(0, 9), std::string("E BADARG "));
  CHECK_EQ((int)board.rate(), 10);
}

TEST(errors_and_replies) {
  boot(board);
  std::string r = command("FOO");
  CHECK_EQ(body(r), std::string("E BADCMD unknown command"));
  CHECK(checksumOk(r));
  CHECK_EQ(body(command(std::string(200, 'Z'))), std::string("E TOOLONG line over 127 characters"));
  std::string bad = withChecksum("LED 1");
  bad[bad.size() - 1] = bad[bad.size() - 1] == '0' ? '1' : '0';
  CHECK_EQ(body(command(bad)).substr(0, 11), std::string("E CHECKSUM "));
  CHECK_EQ(body(command(withChecksum("LED 0"))), std::string("OK LED"));
  CHECK(!fake.led);
  CHECK_EQ(body(command("BUZZ ILLEGAL")), std::string("OK BUZZ"));
  CHECK_EQ(body(command("MODE Q")), std::string("OK MODE"));
  CHECK_EQ(board.mode(), 'Q');
  CHECK_EQ(body(command("MODE S\r")), std::string("OK MODE"));
  // frames kept flowing around the replies
  CHECK(linesStarting("F ").size() > 10);
}

TEST(quiet_mode_heartbeat_every_250ms_and_frames_on_change) {
  boot(board);
  CHECK_EQ(body(command("MODE Q")), std::string("OK MODE"));
  runFor(board, 100000);
  fake.tx.clear();
  runFor(board, 1000000);
  std::vector<std::string> l = fake.lines();
  CHECK_EQ(linesStarting("F ").size(), (size_t)0);  // nothing moved
  std::vector<std::string> h = linesStarting("H ");
  CHECK(h.size() >= 4 && h.size() <= 5);
  CHECK_EQ(l.size(), h.size());
  bool ok = true;
  for (size_t i = 0; i < h.size(); i++) ok = ok && checksumOk(h[i]) && h[i].size() == 9;
  CHECK(ok);

  // heartbeat timing: 250 ms apart (within one loop iteration)
  fake.tx.clear();
  std::vector<uint32_t> at;
  size_t seen = 0;
  for (int i = 0; i < 1000; i++) {
    runFor(board, 1000);
    if (fake.lines().size() != seen) {
      seen = fake.lines().size();
      at.push_back(fake.now);
    }
  }
  CHECK(at.size() >= 3);
  bool spaced = true;
  for (size_t i = 1; i < at.size(); i++) {
    uint32_t d = at[i] - at[i - 1];
    spaced = spaced && d >= 249000 && d <= 251500;
  }
  CHECK(spaced);

  // a change of 8 counts is not reported, one of 9 is (within a frame period or two)
  fake.tx.clear();
  fake.setSquare(5, 520);
  runFor(board, 100000);
  CHECK_EQ(linesStarting("F ").size(), (size_t)0);
  fake.setSquare(5, 521);
  runFor(board, 25000);
  std::vector<std::string> f = linesStarting("F ");
  CHECK_EQ(f.size(), (size_t)1);
  unsigned seq;
  std::vector<int> v;
  if (!f.empty()) {
    CHECK(parseFrame(f[0], &seq, &v));
    CHECK_EQ(v[4], 521);
  }
  // no further frame while nothing else moves
  runFor(board, 200000);
  CHECK_EQ(linesStarting("F ").size(), (size_t)1);
}

TEST(heartbeat_and_frames_share_one_sequence) {
  boot(board);
  runFor(board, 500000);  // ~50 stream frames
  command("MODE Q");
  runFor(board, 600000);
  fake.setSquare(20, 900);
  runFor(board, 600000);
  std::vector<std::string> l = fake.lines();
  int last = -1;
  bool gapless = true;
  int counted = 0;
  for (size_t i = 0; i < l.size(); i++) {
    if (l[i][0] != 'F' && l[i][0] != 'H') continue;
    int s = (int)strtol(l[i].substr(2, 4).c_str(), 0, 16);
    if (last >= 0) gapless = gapless && s == last + 1;
    last = s;
    counted++;
  }
  CHECK(gapless);
  CHECK(counted > 50);  // stream frames, then heartbeats + the change frame
  CHECK(!linesStarting("H ").empty());
}

TEST(sequence_wraps_after_ffff) {
  boot(board);
  // 65536 frames at 100/s is 11 minutes of fake time
  runFor(board, 656000000UL - 1000000UL);
  fake.tx.clear();
  runFor(board, 2000000);
  std::vector<std::string> f = linesStarting("F ");
  bool wrapped = false;
  for (size_t i = 1; i < f.size(); i++)
    if (f[i - 1].substr(2, 4) == "FFFF" && f[i].substr(2, 4) == "0000") wrapped = true;
  CHECK(wrapped);
}

TEST(never_blocks_on_serial_and_keeps_scanning) {
  fake.reset();
  fake.txInstant = false;  // real 64-byte buffer draining at 115200 baud
  board.begin(&fakeHal);
  runFor(board, 300000);
  uint32_t scans0 = board.scanner().scans();
  fake.tx.clear();
  runFor(board, 2000000);
  uint32_t scans = board.scanner().scans() - scans0;
  CHECK(scans >= 2 * 250);  // scanning never waits for the serial port
  CHECK(fake.txUsed <= fake.txCapacity);
  std::vector<std::string> l = fake.lines();
  size_t frames = 0;
  bool ok = true;
  for (size_t i = 1; i < l.size(); i++) {  // [0] may be a tail after clear()
    ok = ok && checksumOk(l[i]);
    if (l[i][0] == 'F') frames++;
  }
  CHECK(ok);
  CHECK(frames >= 190 && frames <= 202);  // 93 % of the link: all 100/s fit
}

TEST(slow_link_sends_fewer_frames_of_more_scans) {
  fake.reset();
  fake.txInstant = false;
  fake.txBytesPerSec = 5000;  // a link too slow for 100 frames/s
  board.begin(&fakeHal);
  runFor(board, 300000);
  fake.tx.clear();
  runFor(board, 2000000);
  std::vector<std::string> l = fake.lines();
  size_t frames = 0;
  bool ok = true;
  unsigned last = 0;
  bool gapless = true;
  for (size_t i = 1; i < l.size(); i++) {
    ok = ok && checksumOk(l[i]);
    unsigned seq;
    std::vector<int> v;
    if (parseFrame(l[i], &seq, &v)) {
      if (frames) gapless = gapless && seq == last + 1;
      last = seq;
      frames++;
      ok = ok && v[0] == 512;
    }
  }
  CHECK(ok);
  CHECK(gapless);  // seq counts frames actually sent
  CHECK(frames >= 80 && frames <= 95);  // ≈ 5000 / 107 per second
}

TEST(id_is_stored_in_eeprom) {
  boot(board);
  CHECK_EQ(body(command("ID table-3", 100000)), std::string("OK ID"));
  CHECK_EQ((int)fake.eeprom[0], 0xC7);
  CHECK_EQ((int)fake.eeprom[1], 7);
  CHECK_EQ(std::string((const char*)fake.eeprom + 2, 7), std::string("table-3"));
  uint32_t writes = fake.eepromWrites;
  CHECK_EQ(body(command("ID table-3")), std::string("OK ID"));
  CHECK_EQ(fake.eepromWrites, writes);  // unchanged bytes are not rewritten
  CHECK(command("?").find(" id=table-3 ") != std::string::npos);
  // survives a reboot (fresh Board on the same EEPROM)
  uint8_t saved[1024];
  memcpy(saved, fake.eeprom, sizeof saved);
  fake.reset();
  memcpy(fake.eeprom, saved, sizeof saved);
  board.begin(&fakeHal);
  runFor(board, 300000);
  CHECK(fake.lines()[0].find(" id=table-3 ") != std::string::npos);
  CHECK_EQ(body(command("ID bad!id")).substr(0, 9), std::string("E BADARG "));
}

TEST(commands_answered_in_order_while_streaming) {
  boot(board);
  size_t before = fake.lines().size();
  fake.send("LED 1\nBUZZ OK\n?\nRATE 50\n");
  runFor(board, 100000);
  std::vector<std::string> l = fake.lines();
  std::vector<std::string> replies;
  for (size_t i = before; i < l.size(); i++)
    if (l[i][0] != 'F') replies.push_back(body(l[i]));
  CHECK_EQ(replies.size(), (size_t)4);
  if (replies.size() == 4) {
    CHECK_EQ(replies[0], std::string("OK LED"));
    CHECK_EQ(replies[1], std::string("OK BUZZ"));
    CHECK_EQ(replies[2].substr(0, 20), std::string("I CROWNHEAD proto=1 "));
    CHECK_EQ(replies[3], std::string("OK RATE"));
  }
}
