// Topic patterns, matched in linear time: the one matcher for every face (tools, panel filter, forward rules).
export {
  compileTopicPattern,
  topicPatternProblem,
  topicPatternProblemSaid,
  TopicPatternError,
  TOPIC_PATTERN_MAX_LENGTH,
  type TopicPattern,
} from './topicPattern';
