import Foundation

extension CustomLanguageModelData {
  /// The base class of generators that produce phrase counts one at a time, as an async sequence
  /// (Apple's abstract `SFCustomLanguageModelData.PhraseCountGenerator`).
  ///
  /// Subclass it for phrases that come from elsewhere (a contacts list, a product catalogue):
  /// override ``makeAsyncIterator()`` to return a subclass of ``Iterator`` whose `next()` gives
  /// each phrase, then insert the generator with the result builder or
  /// ``CustomLanguageModelData/insert(phraseCountGenerator:)``:
  ///
  /// ```swift
  /// final class Names: CustomLanguageModelData.PhraseCountGenerator {
  ///   final class NameIterator: Iterator {
  ///     var names = ["Anneliese", "Bartholomew"]
  ///     override func next() async throws -> CustomLanguageModelData.PhraseCount? {
  ///       names.isEmpty ? nil : CustomLanguageModelData.PhraseCount(phrase: "Call \(names.removeFirst())", count: 10)
  ///     }
  ///   }
  ///   override func makeAsyncIterator() -> Iterator { NameIterator() }
  /// }
  /// ```
  ///
  /// A generator's phrases are read when the data is exported (``CustomLanguageModelData/export(to:)``),
  /// since reading them is asynchronous; ``TemplatePhraseCountGenerator``, the subclass Apple
  /// provides, is the exception: its templates are kept as templates, so the prepared model can
  /// turn them into a grammar. Iterating the base class itself, or an iterator that does not
  /// override `next()`, throws ``CustomLanguageModelError/abstractPhraseCountGenerator(type:method:)``.
  ///
  /// As on Apple's platforms the class is not `Sendable`: the data keeps the generator and reads
  /// it on export, so leave it unchanged until then. Two generators are equal when they are the
  /// same object, except template generators, which are equal when their classes and templates
  /// are (Apple does not document its equality). The base class encodes nothing.
  open class PhraseCountGenerator: AsyncSequence, DataInsertable, Codable, Hashable {
    /// The element type: one phrase with its count.
    public typealias Element = PhraseCount

    /// Produces a generator's phrase counts; subclasses override ``next()``.
    open class Iterator: AsyncIteratorProtocol {
      /// The generator that did not override `makeAsyncIterator()`, when this iterator stands in for it.
      private let unimplementedGenerator: String?

      /// Creates an iterator (for subclasses).
      public init() {
        unimplementedGenerator = nil
      }

      /// The iterator the base class returns, which says that `generator` has no iterator of its own.
      init(standingInFor generator: String) {
        unimplementedGenerator = generator
      }

      /// The next phrase count, or nil after the last one.
      ///
      /// - Throws: ``CustomLanguageModelError/abstractPhraseCountGenerator(type:method:)`` here in
      ///   the base class, which produces nothing: a subclass overrides this method.
      open func next() async throws -> PhraseCount? {
        if let unimplementedGenerator {
          throw CustomLanguageModelError.abstractPhraseCountGenerator(
            type: unimplementedGenerator, method: "makeAsyncIterator()")
        }
        throw CustomLanguageModelError.abstractPhraseCountGenerator(
          type: String(describing: Swift.type(of: self)), method: "next()")
      }
    }

    /// Creates a generator (for subclasses).
    public init() {}

    /// Decodes a generator; the base class has nothing to decode.
    public required init(from decoder: any Decoder) throws {}

    /// Encodes the generator; the base class has nothing to encode, and subclasses override this
    /// to encode what they hold.
    open func encode(to encoder: any Encoder) throws {}

    /// The iterator over this generator's phrase counts; subclasses override it.
    ///
    /// The base class returns an iterator whose `next()` throws
    /// ``CustomLanguageModelError/abstractPhraseCountGenerator(type:method:)``.
    open func makeAsyncIterator() -> Iterator {
      Iterator(standingInFor: String(describing: type(of: self)))
    }

    /// Adds this generator to `data` (the result builder calls this).
    open func insert(data: CustomLanguageModelData) {
      data.insert(phraseCountGenerator: self)
    }

    /// Whether two generators are the same object (template generators: hold the same classes
    /// and templates).
    public static func == (lhs: PhraseCountGenerator, rhs: PhraseCountGenerator) -> Bool {
      if let lhs = lhs as? TemplatePhraseCountGenerator, let rhs = rhs as? TemplatePhraseCountGenerator {
        return lhs.templateGroup == rhs.templateGroup
      }
      return lhs === rhs
    }

    /// Hashes the generator's identity (a template generator: its classes and templates).
    public func hash(into hasher: inout Hasher) {
      if let templates = self as? TemplatePhraseCountGenerator {
        hasher.combine(templates.templateGroup)
      } else {
        hasher.combine(ObjectIdentifier(self))
      }
    }
  }
}
