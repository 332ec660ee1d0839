{{ doc }}{{ head }}
{{ body }}
}
