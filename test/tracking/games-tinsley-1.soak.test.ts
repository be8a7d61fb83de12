// tinsley.pdn games, part 2 of 3 (see tinsley-part.ts).
import { tinsleyPart } from './tinsley-part.ts';

tinsleyPart(1, 3);
