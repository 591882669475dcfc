/// Turns the speaker's own words in an answer into words to the user: "I need to sign my form"
/// becomes "you need to sign your form".
///
/// The answer speaks to the person who recorded the notes, but a small model often copies a
/// sentence of a note as it was spoken, so the answer read as if the assistant had the dentist
/// appointment. Words inside a quotation ("she said, 'you take it back'") are someone else's
/// and stay as they are. Applying it twice changes nothing, and the result for the start of a
/// text is the start of the result for the whole text, so an answer can be shown as it streams.
enum SecondPerson {
  /// `text` with the first person singular turned into the second.
  static func addressed(_ text: String) -> String {
    var output = ""
    var quoted = false
    var sentenceStart = true
    var afterI = false
    var previous: Character?
    var index = text.startIndex
    while index < text.endIndex {
      let character = text[index]
      guard character.isLetter else {
        if isApostrophe(character) {
          let next = text.index(after: index) < text.endIndex ? text[text.index(after: index)] : nil
          if !quoted, previous.map({ $0.isWhitespace || "([".contains($0) }) ?? true, next?.isLetter == true {
            quoted = true
          } else if quoted, next.map({ !$0.isLetter }) ?? true {
            quoted = false
          }
        }
        if ".!?".contains(character) {
          sentenceStart = true
        } else if !character.isWhitespace, !isApostrophe(character) {
          sentenceStart = false
        }
        output.append(character)
        previous = character
        index = text.index(after: index)
        continue
      }
      var end = index
      while end < text.endIndex {
        let next = text.index(after: end)
        if text[end].isLetter {
          end = next
        } else if isApostrophe(text[end]), next < text.endIndex, text[next].isLetter {
          end = next
        } else {
          break
        }
      }
      let word = String(text[index..<end])
      let replacement = quoted ? nil : swapped(word, afterI: afterI)
      afterI = !quoted && word == "I"
      if let replacement {
        output += sentenceStart ? replacement.prefix(1).uppercased() + replacement.dropFirst() : replacement
      } else {
        output += word
      }
      sentenceStart = false
      previous = text[text.index(before: end)]
      index = end
    }
    return output
  }

  /// What `word` becomes, or nil when it stays; `afterI` tells that the word before was "I", so
  /// that "I am" and "I was" become "you are" and "you were".
  private static func swapped(_ word: String, afterI: Bool) -> String? {
    let apostrophe = word.contains("’") ? "’" : "'"
    let key = word.replacingOccurrences(of: "’", with: "'")
    if afterI {
      switch key {
      case "am": return "are"
      case "was": return "were"
      default: break
      }
    }
    switch key {
    case "I": return "you"
    case "I'm": return "you\(apostrophe)re"
    case "I've": return "you\(apostrophe)ve"
    case "I'll": return "you\(apostrophe)ll"
    case "I'd": return "you\(apostrophe)d"
    case "my", "My": return "your"
    case "mine", "Mine": return "yours"
    case "myself", "Myself": return "yourself"
    case "me", "Me": return "you"
    default: return nil
    }
  }

  /// Whether `character` is an apostrophe or a single quotation mark.
  static func isApostrophe(_ character: Character) -> Bool {
    character == "'" || character == "’" || character == "‘"
  }
}
