/**
 * `retrosim/core`: the runtime without any file access, for browsers and bundlers. Everything here takes
 * bytes and plain data; the root entry (`retrosim`, src/index.ts) adds the Node loaders on top (worlds and
 * scenario modules by path, the shipped assets, line of sight on worker threads).
 *
 * The public surface is this file and src/index.ts; docs/api.md says what semver covers.
 */

// ---- errors ----
export { FormatError, isFormatError } from './binary/format-error.js';
export { Saved, withPath, type SavedTypedArray, type TypedArrayClass } from './binary/saved-value.js';
export { CapacityError } from './ecs/ecs-world.js';
export { ParamError } from './sim/params.js';
export { ScenarioError } from './sim/scenario.js';

// ---- limits ----
export { DEFAULT_LIMITS, resolveLimits, type Limits, type LimitsOverride } from './limits.js';

// ---- worlds ----
export type { Body, Bounds, CollisionWorld, Contact, GroundResult, MoveBatch, MoveResult, SegmentResult, UpAxis, Vec3, WorldKind } from './worlds/world.js';
export { moveEach, newGroundResult, newMoveBatch, newMoveResult, newSegmentResult } from './worlds/world.js';
export { detectWorldFile, detectWorldKind, loadWorldBytes, type LoadWorldOptions, type WorldFileKind } from './worlds/load.js';
export type { WasmMode } from './worlds/wasm-mode.js';
export { BUILTIN_WORLDS, BUILTIN_WORLD_CATALOG, DEFAULT_WORLD, type BuiltinWorld } from './worlds/builtin.js';
export { rewriteWorldFile, type RewriteOptions, type RewrittenWorld, type LayoutDifference } from './worlds/rewrite.js';
export { loadPineyTables, type PineyTables } from './worlds/piney/tables.js';

// ---- line of sight ----
export { losBatch, newLosOutput, SEGMENT_STRIDE, VisibilityMatrix, type LosOutput } from './systems/los/los-batch.js';

// ---- random numbers ----
export { FieldRand, type FieldRandState } from './rng/fieldrand.js';
export { CcRand, CCRAND_SEED, type CcRandState } from './rng/ccrand.js';
export { RandomStreams, type Arc4State, type RandomStream, type RandomStreamsState } from './rng/streams.js';

// ---- deterministic maths for systems ----
export { ANGLE_UNITS_PER_TURN } from './ecs/components.js';
export { cosAngle, sinAngle, wrapAngle } from './ecs/angle.js';
// One for each Math function whose last bits ECMAScript leaves to the engine (the determinism guard refuses
// those while systems run, naming these), plus detHypot3 and detSqrt.
export { detAtan, detAtan2, detCos, detHypot3, detSin, detSqrt, detTan } from './numeric/det-math.js';
export { detExp, detExpm1, detLog, detLog1p, detLog2, detLog10, detPow } from './numeric/det-exp-log.js';
export { detAcosh, detAsinh, detAtanh, detCosh, detSinh, detTanh } from './numeric/det-hyperbolic.js';
export { detAcos, detAsin } from './numeric/det-arcsine.js';
export { detCbrt, detHypot } from './numeric/det-roots.js';

// ---- entities and components ----
export {
  Agent,
  BodySize,
  BUILTIN_COMPONENTS,
  Controller,
  defineComponent,
  Heading,
  MAX_CAPACITY,
  Motion,
  Position,
  Sight,
  Velocity,
  type ComponentDef,
  type ComponentMemory,
  type ComponentOf,
  type Components,
  type ComponentStore,
  type FieldArray,
  type FieldArrayOf,
  type FieldSchema,
  type FieldType,
  type Vec3Store,
} from './ecs/components.js';
export { EcsWorld, type EcsQuery, type EcsWorldState } from './ecs/ecs-world.js';

// ---- frames, tasks and events ----
export { Scheduler, type FrameContext, type SchedulerState, type SimRng, type StageHooks, type TaskBody, type TaskFactory, type TaskFunction, type TaskHandle, type TaskState, type TaskStateArray } from './ecs/scheduler.js';
export { createEventBus, type EventBus, type SimEvents } from './ecs/events.js';
export type { KernelProfiler, TaskProfiler } from './ecs/profile-hooks.js';
export { hashHex } from './ecs/state-hash.js';

// ---- navigation ----
export { defaultNavBody, type NavBody } from './nav/walk.js';
export { walkSourceOf, navGridOf, NAV_CELL_METRES, MAX_NAV_CELLS, MAX_NAV_LEVELS, type NavGrid, type WalkSource } from './nav/walk-source.js';
export { buildNavGraph, nearestNode, nodePosition, type NavBuildOptions, type NavGraph } from './nav/graph.js';
export { writeNavGraph, parseNavGraph, navGraphHash, NAV_VERSION } from './nav/graph-file.js';
export { findPath, PathSearch, COARSE_FROM_CELLS, type NavPath, type PathSearchOptions } from './nav/path.js';
export { smoothPath, SMOOTH_LOOKAHEAD } from './nav/smooth.js';
export { flowField, flowFieldTo, reverseEdges, type FlowField, type ReverseEdges } from './nav/flow-field.js';
export { Goal, GoalStatus, navCacheFor, MAX_FLOW_FIELDS, type NavCache, type Navigator } from './nav/navigator.js';
export { navigationSystem } from './systems/navigation.js';
export { goersSystem, Goer, goerPlace, GOALS_STREAM, GOER_PLACES, GOER_REST_FRAMES } from './systems/goers.js';
export { navOrderSystem, NavOrder, navOrderWords, navOrderPart, isInputWord, recordedInputWord, NAV_ORDER_FLAG, NAV_ORDER_SECOND, NAV_ORDER_MAX } from './systems/nav-orders.js';

// ---- systems ----
export { defineSystem, type ParamValue, type StateArray, type SystemBody, type SystemContext, type SystemDef, type SystemFunction, type SystemHost } from './systems/system.js';
export { DEFAULT_SYSTEMS } from './systems/default-systems.js';
export { inputSystem, Buttons, BUTTON_MASK } from './systems/input.js';
export { wanderSystem, wanderKernel, WANDER_STREAM } from './systems/wander.js';
export { controllerSystem, controllerKernel, Behaviour } from './systems/controller.js';
export { gravitySystem, groundContactSystem, gravityKernel, groundContactKernel } from './systems/gravity.js';
export { movementSystem, movementKernel, walkSpeed, horizontalAxes } from './systems/movement.js';
export {
  checkKernel,
  localParallelHost,
  MAX_STAGE_KERNELS,
  rangeFor,
  type KernelFunction,
  type KernelRunner,
  type KernelStores,
  type ParallelHost,
  type RangeKernel,
  type SystemThreads,
} from './systems/range-kernel.js';
export { BUILTIN_KERNELS } from './systems/builtin-kernels.js';
export { triggersSystem, defaultTriggersSystem, defaultTriggers, type TriggerConfig, type SwapTrigger } from './systems/triggers.js';
export { losSystem, eyeHeight, LOS_RATE } from './systems/los-system.js';
export { recordingSystem, frameLog, type FrameLog } from './systems/recording.js';

// ---- scenarios and simulations ----
export { defineScenario, scenarioFingerprint, scenarioParts, DEFAULT_SETTINGS, MAX_PLAYERS, type ScenarioDef, type ScenarioExtras, type ScenarioHost, type ScenarioIdentity, type ScenarioModuleHash, type ScenarioSettings } from './sim/scenario.js';
export { parseParamText, resolveParams, type ParamSpec, type ParamSpecs } from './sim/params.js';
export { Simulation, PLACEMENT_STREAM, PLAYERS_STREAM, type SimSnapshot, type SimulationOptions, type StateHash } from './sim/simulation.js';
export { RollbackState } from './sim/rollback.js';
export { SyncTest, type SyncTestFailure } from './sim/synctest.js';
export { demoButtons } from './sim/demo-input.js';
export { wanderScenario } from './scenarios/wander.js';
export { pineyFieldScenario } from './scenarios/piney-field.js';
export { navigateScenario } from './scenarios/navigate.js';
export { BUILTIN_SCENARIOS, builtinScenario, createSimulation, defaultSettingsFor, scenarioForWorld, simulationFromSettings, type SimulationInit } from './scenarios/builtin.js';
export { scenarioIdentity } from './scenarios/identity.js';

// ---- replays ----
export { readReplay, replayToJson, frameInputs, replayFormatVersion, REPLAY_FORMAT_VERSION, MULTIPLAYER_REPLAY_FORMAT_VERSION, MAX_REPLAY_PLAYERS, RUNTIME_VERSION, DEFAULT_KEYFRAME_INTERVAL, type Replay, type ReplayFrames, type ReplayHeader, type ReplayKeyframe, type WorldIdentity } from './replay/format.js';
export { ReplayRecorder, type RecorderOptions } from './replay/recorder.js';
export { verifyReplay, type Divergence, type KeyframeDiff, type RestoreDivergence, type VerifyOptions, type VerifyResult } from './replay/verify.js';
export { seekReplay, restoreKeyframe, MAX_KEYFRAME_TRIES, type RestoreKeyframeOptions, type SeekOptions, type SeekResult } from './replay/seek.js';
export { replaySimulation, checkReplaySettings, checkReplayWork, type ReplayTarget } from './replay/rebuild.js';
export { checkWorldIdentity, worldIdentity, type OpenedWorld } from './replay/world-identity.js';

// ---- netplay ----
/**
 * Rollback netplay: `NetplaySession` (players predict and roll back; spectators re-simulate and check every
 * checksum), over any `NetplayTransport` to a relay; its options, stats, events and desync report.
 */
export {
  NetplaySession,
  type DesyncReport,
  type NetplayConfig,
  type NetplayEvents,
  type NetplaySessionOptions,
  type NetplayStats,
} from './netplay/session.js';
export type { NetplayTransport } from './netplay/transport.js';
export { MAX_LISTED_STATE_DIFFERENCES, type DesyncStateComparison } from './netplay/desync-states.js';
/** Seeded bots for netplay tests and demos: a player's buttons frame by frame, no Math.random. */
export { makeBot, BOT_POLICIES, type Bot, type BotPolicy } from './netplay/bots.js';
/**
 * The netplay wire protocol (version 3): one JSON object per WebSocket text message, its bounds, and parsers
 * that refuse anything malformed with a `ProtocolError` naming the field (docs/netplay.md).
 */
export {
  PROTOCOL_VERSION,
  ProtocolError,
  parseClientMessage,
  parseRelayMessage,
  encodeClientMessage,
  encodeRelayMessage,
  MAX_MESSAGE_LENGTH,
  MAX_KEYFRAME_LENGTH,
  MAX_CATCHUP_LENGTH,
  type ClientMessage,
  type RelayMessage,
  type JoinMessage,
  type RuntimeIdentity,
  parseRuntimeIdentity,
  type InputMessage,
  type PingMessage,
  type KeyframeMessage,
  type Keyframe,
  type Checksum,
  type Role,
  type JoinedMessage,
  type StartMessage,
  type InputForward,
  type CatchupMessage,
  type LeftMessage,
  type ChangedMessage,
  type PongMessage,
  type ErrorMessage,
  type StateMessage,
  type StateForward,
  type SeatsMessage,
  type AwayMessage,
  type AwayForward,
  checkName,
  MAX_NAME_LENGTH,
  MAX_STATES_PER_CLIENT,
} from './netplay/protocol.js';
