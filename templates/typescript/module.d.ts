{{ header }}

{{ declarations }}
