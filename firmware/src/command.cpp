// command.cpp — line assembly and command parsing.
#include "command.h"
#include "line.h"
#include "flash.h"

LineReader::Event LineReader::feed(char c) {
  if (done_) {
    n_ = 0;
    done_ = false;
  }
  if (c == '\n') {
    done_ = true;
    if (n_ && buf_[n_ - 1] == '\r') n_--;  // accept "\r\n"
    Event e = overflow_ || n_ > MAX_LINE ? TOOLONG : LINE;
    if (e == TOOLONG) n_ = 0;
    overflow_ = false;
    buf_[n_] = 0;
    return e;
  }
  if (c == '\r' && n_ == 0) return NONE;  // ignore a leading '\r'
  if (overflow_) return NONE;
  // one spare byte so "127 chars + \r" still fits before the '\n'
  if (n_ >= MAX_LINE + 1) {
    overflow_ = true;
    return NONE;
  }
  buf_[n_++] = c;
  return NONE;
}

const char* errorName(ErrorCode code) {
  switch (code) {
    case ERR_BADCMD: return F_STR("BADCMD");
    case ERR_BADARG: return F_STR("BADARG");
    case ERR_CHECKSUM: return F_STR("CHECKSUM");
    case ERR_TOOLONG: return F_STR("TOOLONG");
    default: return F_STR("");
  }
}

static char upper(char c) { return (c >= 'a' && c <= 'z') ? (char)(c - 32) : c; }

// Case-insensitive compare of token [s, s+n) with an upper-case keyword.
static bool tokenIs(const char* s, uint8_t n, const char* kw) {
  uint8_t i = 0;
  for (; i < n; i++) {
    char k = flashChar(kw + i);
    if (!k || upper(s[i]) != k) return false;
  }
  return flashChar(kw + i) == 0;
}

static bool idChar(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-';
}

static void fail(Command& out, ErrorCode e, const char* msg) {
  out.kind = CMD_NONE;
  out.error = e;
  out.message = msg;
}

void parseCommand(const char* text, uint8_t length, Command& out) {
  out.kind = CMD_NONE;
  out.error = ERR_NONE;
  out.message = 0;
  out.word = 0;
  out.value = 0;
  out.id[0] = 0;

  if (length > MAX_LINE) return fail(out, ERR_TOOLONG, F_STR("line over 127 characters"));

  // Optional checksum: "...*HH" at the very end.
  for (uint8_t i = 0; i < length; i++) {
    if (text[i] != '*') continue;
    int8_t hi = i + 3 == length ? hexValue(text[i + 1]) : -1;
    int8_t lo = i + 3 == length ? hexValue(text[i + 2]) : -1;
    if (hi < 0 || lo < 0) return fail(out, ERR_CHECKSUM, F_STR("malformed checksum"));
    uint8_t want = (uint8_t)(hi << 4 | lo);
    if (xorChecksum(text, i) != want) return fail(out, ERR_CHECKSUM, F_STR("checksum mismatch"));
    length = i;
    break;
  }

  // Split into at most 3 tokens on spaces.
  const char* tok[3];
  uint8_t len[3];
  uint8_t count = 0;
  uint8_t i = 0;
  while (i < length) {
    while (i < length && text[i] == ' ') i++;
    if (i >= length) break;
    uint8_t start = i;
    while (i < length && text[i] != ' ') i++;
    if (count == 3) return fail(out, ERR_BADARG, F_STR("too many arguments"));
    tok[count] = text + start;
    len[count] = i - start;
    count++;
  }
  if (count == 0) return;  // empty line: nothing to do, no reply

  const char* w = tok[0];
  uint8_t wl = len[0];
  uint8_t nargs = count - 1;
  const char* a = nargs ? tok[1] : "";
  uint8_t al = nargs ? len[1] : 0;

  if (tokenIs(w, wl, F_STR("?"))) {
    out.word = F_STR("?");
    if (nargs) return fail(out, ERR_BADARG, F_STR("? takes no argument"));
    out.kind = CMD_IDENTIFY;
  } else if (tokenIs(w, wl, F_STR("RATE"))) {
    out.word = F_STR("RATE");
    uint16_t n = 0;
    bool ok = nargs == 1 && al >= 1 && al <= 3;
    for (uint8_t k = 0; ok && k < al; k++) {
      if (a[k] < '0' || a[k] > '9') ok = false;
      n = (uint16_t)(n * 10 + (a[k] - '0'));
    }
    if (!ok || n < RATE_MIN || n > RATE_MAX) return fail(out, ERR_BADARG, F_STR("rate must be 1-100"));
    out.kind = CMD_RATE;
    out.value = (uint8_t)n;
  } else if (tokenIs(w, wl, F_STR("MODE"))) {
    out.word = F_STR("MODE");
    if (nargs != 1 || !(tokenIs(a, al, F_STR("S")) || tokenIs(a, al, F_STR("Q"))))
      return fail(out, ERR_BADARG, F_STR("mode must be S or Q"));
    out.kind = CMD_MODE;
    out.value = (uint8_t)upper(a[0]);
  } else if (tokenIs(w, wl, F_STR("BUZZ"))) {
    out.word = F_STR("BUZZ");
    if (nargs == 1 && tokenIs(a, al, F_STR("ILLEGAL"))) out.value = BUZZ_ILLEGAL;
    else if (nargs == 1 && tokenIs(a, al, F_STR("OK"))) out.value = BUZZ_OK;
    else if (nargs == 1 && tokenIs(a, al, F_STR("GAMEOVER"))) out.value = BUZZ_GAMEOVER;
    else if (nargs == 1 && tokenIs(a, al, F_STR("YOURMOVE"))) out.value = BUZZ_YOURMOVE;
    else if (nargs == 1 && tokenIs(a, al, F_STR("OFF"))) out.value = BUZZ_OFF;
    else return fail(out, ERR_BADARG, F_STR("pattern must be ILLEGAL, OK, GAMEOVER, YOURMOVE or OFF"));
    out.kind = CMD_BUZZ;
  } else if (tokenIs(w, wl, F_STR("LED"))) {
    out.word = F_STR("LED");
    if (nargs == 1 && tokenIs(a, al, F_STR("0"))) out.value = LED_OFF;
    else if (nargs == 1 && tokenIs(a, al, F_STR("1"))) out.value = LED_ON;
    else if (nargs == 1 && tokenIs(a, al, F_STR("BLINK"))) out.value = LED_BLINK;
    else return fail(out, ERR_BADARG, F_STR("led must be 0, 1 or BLINK"));
    out.kind = CMD_LED;
  } else if (tokenIs(w, wl, F_STR("ID"))) {
    out.word = F_STR("ID");
    bool ok = nargs == 1 && al >= 1 && al <= ID_MAX;
    for (uint8_t k = 0; ok && k < al; k++) ok = idChar(a[k]);
    if (!ok) return fail(out, ERR_BADARG, F_STR("id must be 1-16 of A-Z a-z 0-9 _ -"));
    for (uint8_t k = 0; k < al; k++) out.id[k] = a[k];
    out.id[al] = 0;
    out.kind = CMD_ID;
  } else {
    return fail(out, ERR_BADCMD, F_STR("unknown command"));
  }
}
