/// One part of a `multipart/form-data` request body: a form field, or a file when it has a
/// file name.
///
/// ```swift
/// let parts = [
///   MultipartPart(name: "file", filename: "jfk.wav", contentType: "audio/wav", data: audio),
///   MultipartPart(name: "response_format", value: "verbose_json"),
/// ]
/// ```
public struct MultipartPart: Sendable, Equatable {
  /// The form field's name.
  public var name: String
  /// The file name sent with the part, which makes it a file upload.
  public var filename: String?
  /// The part's `Content-Type`, if any.
  public var contentType: String?
  /// The part's content.
  public var data: [UInt8]

  /// A part named `name` holding `data`, a file upload when `filename` is given.
  public init(name: String, filename: String? = nil, contentType: String? = nil, data: [UInt8]) {
    self.name = name
    self.filename = filename
    self.contentType = contentType
    self.data = data
  }

  /// A plain text form field.
  public init(name: String, value: String) {
    self.init(name: name, data: Array(value.utf8))
  }
}
