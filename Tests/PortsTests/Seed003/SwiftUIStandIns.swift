// Seed 003 is a SwiftUI app. SwiftUI and Combine do not exist on Linux, so the few of their
// names the seed's logic touches are stood in for here (a view's state, a published property, a
// colour); the seed's own code in the other files is unchanged apart from its imports.

import Foundation

/// Stands in for SwiftUI's `@State`: storage that a struct's methods and closures can set.
@propertyWrapper
struct State<Value> {
  private final class Box {
    var value: Value
    init(_ value: Value) { self.value = value }
  }
  private let box: Box

  init(wrappedValue: Value) { box = Box(wrappedValue) }

  var wrappedValue: Value {
    get { box.value }
    nonmutating set { box.value = newValue }
  }
}

/// Stands in for Combine's `@Published`: a plain stored value.
@propertyWrapper
struct Published<Value> {
  var wrappedValue: Value
}

/// Stands in for Combine's `ObservableObject`.
protocol ObservableObject: AnyObject {}

/// Stands in for SwiftUI's `Color`: the colours the seed sets.
enum Color: Equatable {
  case white, green, blue, red, orange
}
