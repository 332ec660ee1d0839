// swift-tools-version: 6.0
// The team's macOS (or Linux) app, depending on the generated package by path with
// the names symgen.toml gives it.

import PackageDescription

let package = Package(
  name: "ChatApp",
  dependencies: [.package(name: "ChatProtocol", path: "../generated/swift")],
  targets: [
    .executableTarget(
      name: "App",
      dependencies: [
        .product(name: "ChatWire", package: "ChatProtocol"),
        .product(name: "ChatRuntime", package: "ChatProtocol"),
      ]
    )
  ],
  swiftLanguageModes: [.v6]
)
