// Text for people, from core: what the faces import to show outside text safely.
export { controlsEscaped, hasUnsafeCharacter, terminalSafe, terminalSafeDeep } from './terminalSafe';
