extension GeneratedContent {
  /// Creates content from JSON text, keeping the order of object keys.
  ///
  /// - Parameter json: A complete JSON document.
  /// - Throws: ``ConversionError/invalidJSON(offset:reason:)`` when the text is not valid JSON.
  public init(json: String) throws {
    self = try JSONScanner.parse(json)
  }

  /// Creates content from complete JSON text, giving every structure an identifier derived from
  /// `id` and its location, so values keep their identity across the snapshots of a response.
  ///
  /// - Parameters:
  ///   - json: A complete JSON document.
  ///   - id: The identifier of the response the text belongs to.
  /// - Throws: ``ConversionError/invalidJSON(offset:reason:)`` when the text is not valid JSON.
  package init(json: String, id: GenerationID) throws {
    self = try JSONScanner.parse(json, id: id)
  }

  /// Creates the best content a prefix of a JSON document supports, such as a model's output while
  /// it is still streaming.
  ///
  /// `{"title": "Joshua Tr` gives a structure whose `title` is `"Joshua Tr"`. Unfinished strings keep
  /// what was read so far; unfinished numbers are dropped (more digits may follow); properties
  /// without a value yet are absent; unfinished arrays and objects keep what they have. Text that is
  /// not a prefix of valid JSON ends reading there. A complete document gives complete content.
  ///
  /// - Parameters:
  ///   - partialJSON: The JSON text generated so far.
  ///   - id: When given, every structure gets an identifier derived from it and from its location,
  ///     stable across snapshots of one response. Pass the same value for every snapshot.
  package init(partialJSON: String, id: GenerationID? = nil) {
    self = JSONScanner.parsePartial(partialJSON, id: id)
  }

  /// The content as compact JSON text, with structure properties in order.
  public var jsonString: String {
    JSONWriter.string(for: self)
  }

  /// The content as indented JSON text, with structure properties in order.
  package var prettyJSONString: String {
    JSONWriter.string(for: self, isPrettyPrinted: true)
  }
}
