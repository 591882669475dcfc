import Foundation

extension String {
  /// The text without punctuation, apostrophes and hyphens kept (inside words they are spelling),
  /// for results asked for without punctuation (Whisper always punctuates).
  var withoutPunctuation: String {
    String(
      String.UnicodeScalarView(
        unicodeScalars.filter { scalar in
          !CharacterSet.punctuationCharacters.contains(scalar) || scalar == "'" || scalar == "’" || scalar == "-"
        }))
  }
}
