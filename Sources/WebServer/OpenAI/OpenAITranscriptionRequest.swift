import Foundation

/// The fields of `POST /v1/audio/transcriptions`, read from its multipart form and checked.
struct OpenAITranscriptionRequest: Sendable {
  /// The answer's format.
  enum ResponseFormat: String, CaseIterable, Sendable {
    /// `{"text": "…"}`.
    case json
    /// The text alone.
    case text
    /// Text, language, duration and segments (and words, when asked for).
    case verboseJSON = "verbose_json"
    /// SubRip subtitles.
    case srt
    /// WebVTT subtitles.
    case vtt
  }

  /// The uploaded audio.
  var file: MultipartFormData.Part
  /// The model asked for (`whisper-1`, `base`, `tiny.en`).
  var model: String
  /// The spoken language (ISO 639-1), or nil to detect it.
  var language: String?
  /// Words and names likely to be said.
  var prompt: String?
  /// The answer's format.
  var responseFormat: ResponseFormat
  /// Whether verbose JSON also lists every word with its times.
  var includesWords: Bool

  /// Reads the form.
  ///
  /// - Throws: a 400 ``OpenAIError`` naming the field at fault.
  init(_ form: MultipartFormData) throws(OpenAIError) {
    guard let file = form.part(named: "file"), file.fileName != nil || !file.data.isEmpty else {
      throw .invalid(
        "send the audio as the multipart field 'file' (any format: WAV, MP3, FLAC, Ogg, m4a)", param: "file")
    }
    guard !file.data.isEmpty else { throw .invalid("the uploaded file is empty; send a recording", param: "file") }
    self.file = file
    guard let model = form.part(named: "model")?.text.trimmingCharacters(in: .whitespaces), !model.isEmpty else {
      throw .invalid("send the field 'model': whisper-1 (the default speech model) or an installed one", param: "model")
    }
    self.model = model
    let language = form.part(named: "language")?.text.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
    if !language.isEmpty {
      guard (2...3).contains(language.count), language.allSatisfy({ $0.isASCII && $0.isLetter }) else {
        throw .invalid("language must be an ISO 639-1 code such as en or de", param: "language")
      }
    }
    self.language = language.isEmpty ? nil : language
    let prompt = form.part(named: "prompt")?.text.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
    self.prompt = prompt.isEmpty ? nil : String(prompt.prefix(1000))
    let formatName = form.part(named: "response_format")?.text.trimmingCharacters(in: .whitespaces) ?? "json"
    guard let format = ResponseFormat(rawValue: formatName.isEmpty ? "json" : formatName) else {
      throw .invalid(
        "response_format '\(formatName.prefix(30))' is not supported; use one of \(ResponseFormat.allCases.map(\.rawValue).joined(separator: ", "))",
        param: "response_format")
    }
    responseFormat = format
    let granularities = form.values(named: "timestamp_granularities[]") + form.values(named: "timestamp_granularities")
    for granularity in granularities where !["word", "segment"].contains(granularity) {
      throw .invalid(
        "timestamp_granularities takes word and segment, not '\(granularity.prefix(20))'",
        param: "timestamp_granularities")
    }
    includesWords = granularities.contains("word")
    if includesWords, format != .verboseJSON {
      throw .invalid("word timestamps come only with response_format verbose_json", param: "timestamp_granularities")
    }
    if let temperature = form.part(named: "temperature")?.text, !temperature.isEmpty {
      guard let value = Double(temperature), (0...1).contains(value) else {
        throw .invalid("temperature must be a number from 0 to 1", param: "temperature")
      }
    }
    if let stream = form.part(named: "stream")?.text, stream == "true" {
      throw .invalid("streamed transcription is not supported; leave stream out", param: "stream")
    }
  }

  /// The extension to store the upload with (the decoder reads the contents either way).
  var fileExtension: String {
    let name = file.fileName ?? ""
    let value = URL(fileURLWithPath: name).pathExtension.lowercased()
    return value.count <= 5 && value.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) ? value : ""
  }
}
