// The simulated board: physics model, hand API and timelines (see board.ts).
export { SimBoard, type SimBoardOptions, type SimCommandRecord, type SimView } from './board.ts';
export { BoardPhysics, DEFAULT_PHYSICS, coinProfile, type CoinProfile, type Coin, type Placement, type PhysicsOptions } from './physics.ts';
export {
  START_POSITION,
  Timeline,
  applyHandAction,
  moveTimeline,
  rowColToSquare,
  squareToRowCol,
  type BoardHand,
  type HandAction,
  type TimelineStep,
} from './hand.ts';
export { mulberry32, gaussianish, type Rng } from '../../common/prng.ts';
