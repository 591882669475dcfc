/// The shape a backend's answer must have.
public enum LanguageModelResponseFormat: Sendable {
  /// Free text.
  case text
  /// JSON that follows a ``GenerationSchema``, every guide enforced.
  case schema(GenerationSchema)
  /// JSON that follows a JSON Schema given as text (from an OpenAI client, for instance).
  case jsonSchema(String)
}
