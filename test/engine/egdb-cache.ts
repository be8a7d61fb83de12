// Where the tests keep the 4-piece endgame database: one folder in the system's
// temporary directory, shared by the test files and kept between runs (it takes
// about half a minute to build; a damaged file fails its checksum and is rebuilt).
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const TEST_EGDB_DIR = join(tmpdir(), 'crownhead-test-egdb');
