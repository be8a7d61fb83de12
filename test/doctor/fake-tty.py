# A serial device that is not a Crownhead board, on a pseudo-terminal: prints
# the slave's path, then keeps talking like another sketch ("text") or like
# StandardFirmata ("firmata": its REPORT_VERSION bytes), or stays silent.
import os, pty, sys, time, select
kind = sys.argv[1]
master, slave = pty.openpty()
print(os.ttyname(slave), flush=True)
end = time.time() + 60
while time.time() < end:
    if kind == 'text':
        os.write(master, b'Temperature 21.5 C\r\n')
    elif kind == 'firmata':
        os.write(master, bytes([0xF9, 2, 5]))
    elif kind == 'binary':
        os.write(master, bytes([0x80, 0xFE, 0x13, 0x99, 0xC4, 0x07, 0xFF, 0x81]))
    # drain what the host writes so the pty never fills
    r, _, _ = select.select([master], [], [], 0.2)
    if r:
        try:
            os.read(master, 1024)
        except OSError:
            pass
