public enum DemoPlaceholder {}
