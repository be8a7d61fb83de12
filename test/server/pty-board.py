# A Crownhead board on a pseudo-terminal, for the club tests: prints the
# slave's path, answers the identity handshake ("?") with its id, "OK" to
# other commands, and streams frames of an empty board at 100 Hz, each line
# with its XOR checksum as the firmware sends it (PROTOCOL.md).
import os, pty, select, sys, time

board_id = sys.argv[1]
master, slave = pty.openpty()
print(os.ttyname(slave), flush=True)

def line(body):
    x = 0
    for ch in body:
        x ^= ord(ch)
    return ('%s*%02X\r\n' % (body, x)).encode()

identity = line('I CROWNHEAD proto=1 fw=1.0.0 id=%s n=32 scan=2400 rate=100 mode=S' % board_id)
seq = 0
pending = b''
next_frame = time.time()
end = time.time() + 120
while time.time() < end:
    r, _, _ = select.select([master], [], [], max(0, next_frame - time.time()))
    if r:
        try:
            pending += os.read(master, 1024)
        except OSError:
            pass
        while b'\n' in pending:
            cmd, pending = pending.split(b'\n', 1)
            cmd = cmd.strip().decode('latin-1')
            if cmd.startswith('?'):
                os.write(master, identity)
            elif cmd:
                os.write(master, line('OK ' + cmd.split('*')[0].split(' ')[0]))
    if time.time() >= next_frame:
        seq = (seq + 1) & 0xFFFF
        try:
            os.write(master, line('F %04X %s' % (seq, '1F4' * 32)))
        except OSError:
            pass
        next_frame += 0.01
