// The front door of core/environments: what the faces (CLI, extension, MCP server, test kit) may use.
export {
  type Environment,
  environmentChange,
  EnvironmentChanged,
  EnvironmentValues,
  serviceOrigin,
  toEnvironment,
} from './environment';
export {
  type EnvironmentConfig,
  parseEnvironments,
  parseServiceFields,
  SANDBOX_ENVIRONMENT,
  sandboxEnvironment,
  type ServiceFieldProblem,
  type ServiceFields,
} from './environmentConfig';
