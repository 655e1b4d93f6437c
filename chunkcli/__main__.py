from chunkcli.cli import app

app(prog_name="chunkcli")
