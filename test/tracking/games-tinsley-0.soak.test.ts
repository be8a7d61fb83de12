// tinsley.pdn games, part 1 of 3 (see tinsley-part.ts).
import { tinsleyPart } from './tinsley-part.ts';

tinsleyPart(0, 3);
