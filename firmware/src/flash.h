// flash.h — constant strings and tables in program memory on the AVR (the
// 328P has 2 KB of RAM and would otherwise copy every literal into it), and
// plain memory on the host. Logic code reads them only through these helpers.
#ifndef CROWNHEAD_FLASH_H
#define CROWNHEAD_FLASH_H

#include <stdint.h>

#ifdef __AVR__
#include <avr/pgmspace.h>
#define FLASH_ATTR PROGMEM
#define F_STR(s) PSTR(s)
static inline char flashChar(const char* p) { return (char)pgm_read_byte(p); }
static inline uint8_t flashByte(const uint8_t* p) { return pgm_read_byte(p); }
static inline uint16_t flashWord(const uint16_t* p) { return pgm_read_word(p); }
#else
#define FLASH_ATTR
#define F_STR(s) (s)
static inline char flashChar(const char* p) { return *p; }
static inline uint8_t flashByte(const uint8_t* p) { return *p; }
static inline uint16_t flashWord(const uint16_t* p) { return *p; }
#endif

#endif
