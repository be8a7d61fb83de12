// tinsley.pdn games, part 3 of 3 (see tinsley-part.ts).
import { tinsleyPart } from './tinsley-part.ts';

tinsleyPart(2, 3);
