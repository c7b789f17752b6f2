"""The dialect: what each JSON Schema keyword is to polytype (`keywords`) and validation of a document against the dialect meta-schema (`validate`, `fastcheck`)."""
