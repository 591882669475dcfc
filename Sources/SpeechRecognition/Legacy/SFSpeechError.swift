import Foundation

// swift-format-ignore: AlwaysUseLowerCamelCase
/// The error domain of ``SFSpeechError``, as Speech names it: what `(error as NSError).domain`
/// is for every speech error.
public let SFSpeechErrorDomain = "SFSpeechErrorDomain"

/// An error from speech recognition, with Apple's codes, bridged to `NSError` in
/// ``SFSpeechErrorDomain`` with the code's raw value.
///
/// Catch it by type and code (`catch let error as SFSpeechError where error.code == .noModel`) or
/// by code alone (`catch SFSpeechError.timeout`).
public struct SFSpeechError: LocalizedError, CustomNSError, Sendable, Hashable {
  /// What went wrong.
  ///
  /// The codes Speech has had since iOS 17 carry the raw values of Apple's header. Apple does not
  /// publish the raw values of the codes Speech 26 added (`noModel` and the rest), so ours
  /// (1001…1009) are this package's own: compare those by name. `canceled`, `noSpeechDetected`
  /// and `invalidRequest` are our extension; the first two carry the numbers Apple's recognizer
  /// reports for the same events (301, and 1110) in its own internal domains.
  public enum Code: Int, Sendable, Hashable, CaseIterable {
    /// There was an internal error.
    case internalServiceError = 1
    /// The audio source could not be read.
    case audioReadFailed = 2
    /// The custom language model's templates name a class they do not define.
    case undefinedTemplateClassName = 7
    /// The custom language model file was malformed.
    case malformedSupplementalModel = 8
    /// The operation timed out.
    case timeout = 12
    /// A required parameter is missing.
    case missingParameter = 13
    /// The audio input's time overlaps or precedes audio already given.
    case audioDisordered = 1_001
    /// The audio input is in a format the modules did not expect.
    case unexpectedAudioFormat = 1_002
    /// The modules have no audio format in common, or do not support one.
    case incompatibleAudioFormats = 1_003
    /// The module needs a locale that has not been reserved (allocated).
    case assetLocaleNotAllocated = 1_004
    /// The app has reserved more locales than allowed.
    case tooManyAssetLocalesAllocated = 1_005
    /// The locale asked for is not one speech supports.
    case cannotAllocateUnsupportedLocale = 1_006
    /// No model for the locale and options is installed or can be installed.
    case noModel = 1_007
    /// There are not enough resources on the device to do the work.
    case insufficientResources = 1_008
    /// A module's results failed.
    case moduleOutputFailed = 1_009
    /// The task was cancelled (our extension; 301 is the code Apple's recognizer reports).
    case canceled = 301
    /// The audio held no speech (our extension; 1110 is the code Apple's recognizer reports).
    case noSpeechDetected = 1_110
    /// The request is not one this recognizer can handle (our extension).
    case invalidRequest = 2_000
  }

  /// What went wrong.
  public let code: Code

  /// An error with `code`.
  public init(_ code: Code) { self.code = code }

  /// The domain every speech error bridges to: ``SFSpeechErrorDomain``.
  public static var errorDomain: String { SFSpeechErrorDomain }

  /// The code's raw value, which `(error as NSError).code` gives.
  public var errorCode: Int { code.rawValue }

  /// The bridged error's user info: its description.
  public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: errorDescription ?? ""] }

  /// A sentence saying what happened.
  public var errorDescription: String? {
    switch code {
    case .internalServiceError: "There was an internal error in speech recognition."
    case .audioReadFailed: "The audio could not be read."
    case .undefinedTemplateClassName: "A custom language model template names a class that is not defined."
    case .malformedSupplementalModel: "The custom language model file is malformed."
    case .timeout: "The speech operation timed out."
    case .missingParameter: "A required parameter is missing."
    case .audioDisordered: "The audio input overlaps or precedes audio already given."
    case .unexpectedAudioFormat: "The audio input is not in the format the modules expect."
    case .incompatibleAudioFormats: "The speech modules have no audio format in common."
    case .assetLocaleNotAllocated: "The module's locale has not been reserved."
    case .tooManyAssetLocalesAllocated: "Too many locales are reserved."
    case .cannotAllocateUnsupportedLocale: "The locale is not supported by speech recognition."
    case .noModel: "No speech model is available for this locale and these options."
    case .insufficientResources: "There are not enough resources to transcribe."
    case .moduleOutputFailed: "A speech module's results failed."
    case .canceled: "Recognition request was canceled."
    case .noSpeechDetected: "No speech detected in the audio."
    case .invalidRequest: "The recognition request is not one this recognizer can handle."
    }
  }
}

/// Apple's aliases of the codes, as its bridged error types have them.
extension SFSpeechError {
  /// The audio source could not be read.
  public static var audioReadFailed: Code { .audioReadFailed }
  /// There was an internal error.
  public static var internalServiceError: Code { .internalServiceError }
  /// The custom language model file was malformed.
  public static var malformedSupplementalModel: Code { .malformedSupplementalModel }
  /// A required parameter is missing.
  public static var missingParameter: Code { .missingParameter }
  /// The operation timed out.
  public static var timeout: Code { .timeout }
  /// The custom language model's templates name a class they do not define.
  public static var undefinedTemplateClassName: Code { .undefinedTemplateClassName }
}

extension SFSpeechError.Code {
  /// Whether `error` is a speech error with this code, so `catch SFSpeechError.timeout` works as
  /// it does for Apple's bridged errors.
  public static func ~= (code: Self, error: any Error) -> Bool {
    (error as? SFSpeechError)?.code == code
  }
}
