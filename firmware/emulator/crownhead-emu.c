/*
 * crownhead-emu.c — the Crownhead board in emulation, on libsimavr.
 *
 * Loads the firmware ELF into an ATmega328P at 16 MHz and models what is
 * wired to it: two CD74HC4067 muxes whose shared select lines S0..S3 are port
 * D pins 2..5, with 32 linear Hall sensors behind them (mux 0 → A0 for squares
 * 1–16, mux 1 → A1 for squares 17–32, channel = (square − 1) mod 16, as in
 * hardware/pinmap.json), and the coins on the board. The UART is bridged to a
 * pseudo-terminal (own bridge, single-threaded, non-blocking: output is
 * dropped while no program has the pty open). Runs at real time or slower.
 * The buzzer pin (D9 = PB1) is watched: each note the firmware plays is
 * recorded with its frequency (from the pin's edges), start and length.
 *
 * Usage: crownhead-emu path/to/crownhead.elf
 * stdout: first `PTY <slave path>`, then one answer line per stdin command:
 *   SET <sq 1-32> <coins 0-2>  PLACE <sq>  LIFT <sq>  START  CLEAR → OK
 *   LEVELS <32 millivolts>  (the host's sensor model; OFF → back to the built-in one) → OK
 *   NOISE <σ per visit µV> <σ per conversion µV>  SEED <n>  GHOST <per mille>
 *   WARMUP <rise m°C> <time constant ms> <32 zero drifts µV/°C> (OFF → none) → OK
 *   PEEK <sq> → PEEK <mV> … (the conversions of the square's latest finished visit, the first after switching first)
 *   STATS → STATS cycles=<n> simms=<ms> scans=<n> adc=<n> txbytes=<n> dropped=<n> didr0=<n> wdtcsr=<n> warmmc=<m°C>
 *   BUZZ → BUZZ notes=<n> [<hz>Hz@<start ms>+<length ms> …] (the last 16 notes played; BUZZ CLEAR forgets them → OK)
 *   QUIT or EOF on stdin → exit 0; anything else → ERR <reason>
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "avr_adc.h"
#include "avr_ioport.h"
#include "avr_uart.h"
#include "sim_avr.h"
#include "sim_elf.h"
#include "sim_irq.h"

#include "sensor_model.h"

#define F_CPU 16000000UL
#define SERVICE_CYCLES (F_CPU / 1000) /* host I/O once per simulated ms */
#define OUT_RING 16384

static avr_t* avr;
static FILE* ctl_out; /* the real stdout: libsimavr prints chatter on fd 1, moved to stderr */
static int board[33];          /* coins per square (index 1..32) */
static unsigned select_bits;   /* S0..S3 as driven by the firmware */
static int last_adc_channel = -1;
static uint64_t scans, conversions, tx_bytes, dropped;

static int pty_master = -1;
static char pty_name[128];
static uint8_t out_ring[OUT_RING];
static size_t out_head, out_len;
static uint8_t in_buf[256];
static size_t in_head, in_len;
static int uart_xon = 1;
static avr_irq_t* uart_input;

/* ---- mux + sensors ------------------------------------------------------ */

static void select_pin_changed(avr_irq_t* irq, uint32_t value, void* param) {
  (void)irq;
  unsigned bit = (unsigned)(uintptr_t)param;
  if (value) select_bits |= 1u << bit;
  else select_bits &= ~(1u << bit);
}

/*
 * The settling ghost: the first conversion after the ADC's input (A0 ↔ A1) or
 * the mux channel changed still carries this fraction of the voltage converted
 * before (the sample-and-hold capacitor and the mux output not yet settled);
 * the firmware's discarded first conversion per mux and channel is what keeps
 * it out of the readings (firmware/src/scanner.cpp). GHOST sets it.
 */
static double ghost = 0.25;
static int last_square = -1; /* the square of the conversion before */
static double last_mv = 2500;
/* PEEK: the conversions of each square's latest finished visit, the first (the ghost's) first. The visit under
   way is kept apart (peek_now) and becomes the square's (peek_mv) when the firmware moves on to another square, so
   a PEEK answered between two conversions of a visit never shows it half done. */
#define PEEK_MAX 8
static double peek_mv[33][PEEK_MAX];
static int peek_len[33];
static double peek_now[PEEK_MAX];
static int peek_now_len;

/* A conversion starts: put the selected sensor's voltage on A0 or A1. */
static void adc_triggered(avr_irq_t* irq, uint32_t value, void* param) {
  (void)irq;
  (void)param;
  union {
    avr_adc_mux_t mux;
    uint32_t v;
  } e = {.v = value};
  unsigned channel = select_bits & 15;
  unsigned input = e.mux.src;
  if (input > 1) return;
  int square = (int)(input * 16 + channel + 1);
  int fresh = square != last_square;
  double mv = sensor_millivolts(square, board[square], (double)avr->cycle / (F_CPU / 1000), fresh);
  if (fresh) mv += ghost * (last_mv - mv);
  if (fresh && last_square > 0) {
    memcpy(peek_mv[last_square], peek_now, sizeof peek_now);
    peek_len[last_square] = peek_now_len;
  }
  if (fresh) peek_now_len = 0;
  last_square = square;
  last_mv = mv;
  if (peek_now_len < PEEK_MAX) peek_now[peek_now_len++] = mv;
  avr_raise_irq(avr_io_getirq(avr, AVR_IOCTL_ADC_GETIRQ, ADC_IRQ_ADC0 + input), (uint32_t)(mv + 0.5));
  conversions++;
  /* a full-board scan is counted each time the firmware comes back to channel 0 */
  if (input == 0 && channel == 0 && last_adc_channel == 15) scans++;
  if (input == 0) last_adc_channel = (int)channel;
}

/* ---- buzzer ---------------------------------------------------------------- */

/* A note ends when the pin stops toggling for 5 ms or its period changes by more than 10 %. */
#define BUZZ_GAP_CYCLES (F_CPU / 200)
#define BUZZ_NOTES 16
struct buzz_note {
  uint64_t first, last; /* cycles of the first and last rising edge */
  uint32_t rises;
};
static struct buzz_note buzz_cur, buzz_log[BUZZ_NOTES];
static unsigned buzz_count; /* notes recorded (the log keeps the last BUZZ_NOTES) */

static void buzz_close(void) {
  if (buzz_cur.rises >= 3) buzz_log[buzz_count++ % BUZZ_NOTES] = buzz_cur;
  memset(&buzz_cur, 0, sizeof buzz_cur);
}

static void buzzer_pin_changed(avr_irq_t* irq, uint32_t value, void* param) {
  (void)irq;
  (void)param;
  if (!value) return;
  uint64_t now = avr->cycle;
  if (buzz_cur.rises) {
    uint64_t gap = now - buzz_cur.last;
    double period = buzz_cur.rises >= 2 ? (double)(buzz_cur.last - buzz_cur.first) / (buzz_cur.rises - 1) : (double)gap;
    if (gap > BUZZ_GAP_CYCLES || (double)gap > 1.1 * period || (double)gap < 0.9 * period) buzz_close();
  }
  if (!buzz_cur.rises) buzz_cur.first = now;
  buzz_cur.last = now;
  buzz_cur.rises++;
}

static void reply(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

/* "BUZZ notes=<n> <hz>Hz@<start ms>+<length ms> …" */
static void buzz_reply(void) {
  if (buzz_cur.rises && avr->cycle - buzz_cur.last > BUZZ_GAP_CYCLES) buzz_close();
  static char out[BUZZ_NOTES * 40 + 32];
  size_t len = (size_t)snprintf(out, sizeof out, "BUZZ notes=%u", buzz_count);
  unsigned from = buzz_count > BUZZ_NOTES ? buzz_count - BUZZ_NOTES : 0;
  for (unsigned i = from; i < buzz_count; i++) {
    const struct buzz_note* n = &buzz_log[i % BUZZ_NOTES];
    double period = (double)(n->last - n->first) / (n->rises - 1);
    len += (size_t)snprintf(out + len, sizeof out - len, " %.0fHz@%.0f+%.0f", F_CPU / period,
                            (double)n->first / (F_CPU / 1000), (n->last - n->first + period) / (F_CPU / 1000));
  }
  reply("%s", out);
}

/* ---- UART <-> pty ------------------------------------------------------- */

static void uart_byte_out(avr_irq_t* irq, uint32_t value, void* param) {
  (void)irq;
  (void)param;
  tx_bytes++;
  if (out_len == OUT_RING) {
    dropped++;
    return;
  }
  out_ring[(out_head + out_len) % OUT_RING] = (uint8_t)value;
  out_len++;
}
static void uart_xon_cb(avr_irq_t* irq, uint32_t v, void* p) { (void)irq, (void)v, (void)p, uart_xon = 1; }
static void uart_xoff_cb(avr_irq_t* irq, uint32_t v, void* p) { (void)irq, (void)v, (void)p, uart_xon = 0; }

static void pty_open(void) {
  int slave;
  if (openpty(&pty_master, &slave, pty_name, NULL, NULL) < 0) {
    perror("openpty");
    exit(2);
  }
  struct termios t;
  tcgetattr(slave, &t);
  cfmakeraw(&t); /* no echo: our output must never come back as input */
  cfsetispeed(&t, B115200);
  cfsetospeed(&t, B115200);
  tcsetattr(slave, TCSANOW, &t);
  close(slave); /* the master then reports POLLHUP until a client opens it */
  fcntl(pty_master, F_SETFL, fcntl(pty_master, F_GETFL) | O_NONBLOCK);
}

static void pty_service(void) {
  struct pollfd p = {.fd = pty_master, .events = POLLIN | POLLOUT};
  poll(&p, 1, 0);
  if (p.revents & POLLHUP) { /* nobody has the pty open: drop the output */
    dropped += out_len;
    out_len = 0;
    return;
  }
  while (out_len && (p.revents & POLLOUT)) {
    size_t run = out_head + out_len > OUT_RING ? OUT_RING - out_head : out_len;
    ssize_t n = write(pty_master, out_ring + out_head, run);
    if (n <= 0) break;
    out_head = (out_head + (size_t)n) % OUT_RING;
    out_len -= (size_t)n;
  }
  if (in_len == 0 && (p.revents & POLLIN)) {
    ssize_t n = read(pty_master, in_buf, sizeof in_buf);
    if (n > 0) {
      in_head = 0;
      in_len = (size_t)n;
    }
  }
  /* one byte per simulated ms-service is too slow; hand over what the UART takes */
  while (in_len && uart_xon) {
    avr_raise_irq(uart_input, in_buf[in_head++]);
    in_len--;
  }
}

/* ---- control commands on stdin ------------------------------------------ */

static int parse_square(const char* s) {
  char* end;
  long v = s ? strtol(s, &end, 10) : 0;
  return (s && *end == 0 && v >= 1 && v <= 32) ? (int)v : 0;
}

static void reply(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
static void reply(const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vfprintf(ctl_out, fmt, ap);
  va_end(ap);
  fputc('\n', ctl_out);
  fflush(ctl_out);
}

/* answer and leave control() */
#define REPLY(...) \
  do {               \
    reply(__VA_ARGS__); \
    return;          \
  } while (0)

/* LEVELS mv1 … mv32: noise-free sensor outputs from the host's model */
static void levels(char* rest) {
  double v[33];
  char* save;
  int n = 0;
  char* tok = strtok_r(rest, " \t\r", &save);
  if (tok && !strcmp(tok, "OFF") && !strtok_r(NULL, " \t\r", &save)) {
    for (int s = 1; s <= 32; s++) model_level_mv[s] = -1;
    REPLY("OK");
  }
  for (; tok; tok = strtok_r(NULL, " \t\r", &save)) {
    char* end;
    long x = strtol(tok, &end, 10);
    if (*end || x < 0 || x > 5000) REPLY("ERR levels must be millivolts 0-5000");
    if (n == 32) REPLY("ERR LEVELS takes 32 values");
    v[++n] = (double)x;
  }
  if (n != 32) REPLY("ERR LEVELS takes 32 values");
  for (int s = 1; s <= 32; s++) model_level_mv[s] = v[s];
  REPLY("OK");
}

/* WARMUP rise_mC tau_ms uV_per_C×32 (each sensor's zero drift) / WARMUP OFF */
static void warmup(char* rest) {
  double v[35];
  char* save;
  int n = 0;
  char* tok = strtok_r(rest, " \t\r", &save);
  if (tok && !strcmp(tok, "OFF") && !strtok_r(NULL, " \t\r", &save)) {
    model_warm_rise_c = 0;
    REPLY("OK");
  }
  for (; tok; tok = strtok_r(NULL, " \t\r", &save)) {
    char* end;
    long x = strtol(tok, &end, 10);
    if (*end || x < -10000000 || x > 10000000) REPLY("ERR WARMUP takes integers");
    if (n == 34) REPLY("ERR WARMUP takes a rise (m°C), a time constant (ms) and 32 drifts (µV/°C)");
    v[n++] = (double)x;
  }
  if (n != 34 || v[0] < 0 || v[1] < 1) REPLY("ERR WARMUP takes a rise (m°C), a time constant (ms) and 32 drifts (µV/°C)");
  model_warm_rise_c = v[0] / 1000.0;
  model_warm_tau_ms = v[1];
  for (int s = 1; s <= 32; s++) model_drift_mv_per_c[s] = v[s + 1] / 1000.0;
  REPLY("OK");
}

/* PEEK sq: the conversions of the square's latest finished visit, mV (the first is the one after switching) */
static void peek(int sq) {
  char out[PEEK_MAX * 12 + 16];
  size_t len = (size_t)snprintf(out, sizeof out, "PEEK");
  for (int k = 0; k < peek_len[sq]; k++) len += (size_t)snprintf(out + len, sizeof out - len, " %.0f", peek_mv[sq][k]);
  reply("%s", out);
}

static int parse_uint(const char* s, long max, long* out) {
  char* end;
  if (!s) return 0;
  long v = strtol(s, &end, 10);
  if (*end || v < 0 || v > max) return 0;
  *out = v;
  return 1;
}

static void control(char* line) {
  if (!strncmp(line, "LEVELS", 6) && (line[6] == ' ' || line[6] == 0 || line[6] == '\r')) {
    levels(line + 6);
    return;
  }
  if (!strncmp(line, "WARMUP", 6) && (line[6] == ' ' || line[6] == 0 || line[6] == '\r')) {
    warmup(line + 6);
    return;
  }
  char* save;
  char* cmd = strtok_r(line, " \t\r", &save);
  char* a1 = strtok_r(NULL, " \t\r", &save);
  char* a2 = strtok_r(NULL, " \t\r", &save);
  if (!cmd) REPLY("ERR empty command");
  if (!strcmp(cmd, "SET")) {
    int sq = parse_square(a1);
    char* end;
    long c = a2 ? strtol(a2, &end, 10) : -1;
    if (!sq) REPLY("ERR square must be 1-32");
    if (!a2 || *end || c < 0 || c > 2) REPLY("ERR coins must be 0-2");
    board[sq] = (int)c;
    REPLY("OK");
  }
  if (!strcmp(cmd, "PLACE") || !strcmp(cmd, "LIFT")) {
    int sq = parse_square(a1);
    if (!sq) REPLY("ERR square must be 1-32");
    if (cmd[0] == 'P' && board[sq] < 2) board[sq]++;
    if (cmd[0] == 'L' && board[sq] > 0) board[sq]--;
    REPLY("OK");
  }
  if (!strcmp(cmd, "START") || !strcmp(cmd, "CLEAR")) {
    for (int s = 1; s <= 32; s++) board[s] = (cmd[0] == 'S' && (s <= 12 || s >= 21)) ? 1 : 0;
    REPLY("OK");
  }
  if (!strcmp(cmd, "STATS")) {
    /* registers the firmware must have set: DIDR0 (0x7E) and WDTCSR (0x60) */
    REPLY("STATS cycles=%llu simms=%llu scans=%llu adc=%llu txbytes=%llu dropped=%llu didr0=%u wdtcsr=%u warmmc=%.0f",
                 (unsigned long long)avr->cycle, (unsigned long long)(avr->cycle / (F_CPU / 1000)),
                 (unsigned long long)scans, (unsigned long long)conversions,
                 (unsigned long long)tx_bytes, (unsigned long long)dropped, (unsigned)avr->data[0x7E],
                 (unsigned)avr->data[0x60], 1000.0 * model_warmth_c((double)avr->cycle / (F_CPU / 1000)));
  }
  if (!strcmp(cmd, "BUZZ")) {
    if (a1 && !strcmp(a1, "CLEAR")) {
      memset(&buzz_cur, 0, sizeof buzz_cur);
      buzz_count = 0;
      REPLY("OK");
    }
    if (a1) REPLY("ERR BUZZ takes nothing or CLEAR");
    buzz_reply();
    return;
  }
  if (!strcmp(cmd, "NOISE")) {
    long visit, conv;
    if (!parse_uint(a1, 100000, &visit) || !parse_uint(a2, 100000, &conv)) REPLY("ERR NOISE takes two σ in µV (per visit, per conversion)");
    model_visit_sigma_mv = (double)visit / 1000.0;
    model_conv_sigma_mv = (double)conv / 1000.0;
    REPLY("OK");
  }
  if (!strcmp(cmd, "SEED")) {
    long seed;
    if (!parse_uint(a1, 4294967295L, &seed)) REPLY("ERR SEED takes a number 0-4294967295");
    model_seed((uint32_t)seed);
    REPLY("OK");
  }
  if (!strcmp(cmd, "GHOST")) {
    long permille;
    if (!parse_uint(a1, 1000, &permille)) REPLY("ERR GHOST takes a fraction in per mille 0-1000");
    ghost = (double)permille / 1000.0;
    REPLY("OK");
  }
  if (!strcmp(cmd, "PEEK")) {
    int sq = parse_square(a1);
    if (!sq) REPLY("ERR square must be 1-32");
    peek(sq);
    return;
  }
  if (!strcmp(cmd, "QUIT")) exit(0);
  REPLY("ERR unknown command %.40s", cmd);
}

static char ctl_buf[512];
static size_t ctl_len;

static void stdin_service(void) {
  struct pollfd p = {.fd = 0, .events = POLLIN};
  if (poll(&p, 1, 0) <= 0) return;
  ssize_t n = read(0, ctl_buf + ctl_len, sizeof ctl_buf - 1 - ctl_len);
  if (n <= 0) exit(0); /* EOF: the controlling program went away */
  ctl_len += (size_t)n;
  char* nl;
  while ((nl = memchr(ctl_buf, '\n', ctl_len)) != NULL) {
    *nl = 0;
    control(ctl_buf);
    size_t used = (size_t)(nl - ctl_buf) + 1;
    memmove(ctl_buf, ctl_buf + used, ctl_len - used);
    ctl_len -= used;
  }
  if (ctl_len == sizeof ctl_buf - 1) ctl_len = 0; /* absurdly long line: drop */
}

/* ---- pacing --------------------------------------------------------------- */

static double wall_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s crownhead.elf\n", argv[0]);
    return 2;
  }
  signal(SIGPIPE, SIG_IGN);
  fflush(stdout);
  ctl_out = fdopen(dup(1), "w");
  dup2(2, 1);
  elf_firmware_t fw;
  memset(&fw, 0, sizeof fw);
  if (elf_read_firmware(argv[1], &fw) != 0) {
    fprintf(stderr, "crownhead-emu: cannot load %s\n", argv[1]);
    return 2;
  }
  strcpy(fw.mmcu, "atmega328p");
  fw.frequency = F_CPU;
  avr = avr_make_mcu_by_name(fw.mmcu);
  if (!avr) return 2;
  avr_init(avr);
  avr->log = LOG_ERROR;
  avr_load_firmware(avr, &fw);
  avr->frequency = F_CPU;
  avr->vcc = avr->avcc = avr->aref = 5000; /* else simavr's ADC assumes 3.3 V */

  for (unsigned b = 0; b < 4; b++)
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ('D'), 2 + b),
                            select_pin_changed, (void*)(uintptr_t)b);
  avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_ADC_GETIRQ, ADC_IRQ_OUT_TRIGGER),
                          adc_triggered, NULL);
  /* the buzzer on D9 = PB1 (hardware/pinmap.json buzzerPin) */
  avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ('B'), 1), buzzer_pin_changed, NULL);

  uint32_t flags = 0;
  avr_ioctl(avr, AVR_IOCTL_UART_GET_FLAGS('0'), &flags);
  flags &= ~(AVR_UART_FLAG_STDIO | AVR_UART_FLAG_POLL_SLEEP);
  avr_ioctl(avr, AVR_IOCTL_UART_SET_FLAGS('0'), &flags);
  avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUTPUT),
                          uart_byte_out, NULL);
  avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XON),
                          uart_xon_cb, NULL);
  avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XOFF),
                          uart_xoff_cb, NULL);
  uart_input = avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_INPUT);

  pty_open();
  reply("PTY %s", pty_name);

  double wall0 = wall_s();
  uint64_t sim0 = 0, next_service = SERVICE_CYCLES;
  for (;;) {
    int state = avr_run(avr);
    if (state == cpu_Done || state == cpu_Crashed) {
      fprintf(stderr, "crownhead-emu: firmware stopped (state %d)\n", state);
      return 3;
    }
    if (avr->cycle < next_service) continue;
    next_service = avr->cycle + SERVICE_CYCLES;
    pty_service();
    stdin_service();
    /* never run ahead of the wall clock; if the host is slow, just lag */
    double ahead = (double)(avr->cycle - sim0) / F_CPU - (wall_s() - wall0);
    if (ahead > 0.002) {
      struct timespec ts = {0, (long)(ahead * 1e9)};
      nanosleep(&ts, NULL);
    } else if (ahead < -0.1) {
      wall0 = wall_s();
      sim0 = avr->cycle;
    }
  }
}
