print("fathom")
